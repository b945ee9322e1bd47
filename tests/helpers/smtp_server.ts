/**
 * A real SMTP server on loopback for tests (package `smtp-server`), with the
 * received mails parsed by `mailparser`.
 *
 * ```ts
 * import { startSmtpServer } from '#tests/helpers/smtp_server'
 *
 * const smtp = await startSmtpServer()                      // plain SMTP, no TLS, no AUTH needed
 * await useSmtp(smtp.port)                                   // mail on, through it
 * // ... trigger a mail ...
 * const mail = await smtp.waitForMessage((m) => m.subject?.includes('reset') ?? false)
 * mail.text // the plain-text body
 * await smtp.close()
 * ```
 *
 * Options: `secure` (implicit TLS with the self-signed localhost certificate
 * bundled in smtp-server: clients must accept unauthorized certificates),
 * `startTls` (offer STARTTLS with that certificate; off by default, so plain
 * SMTP never upgrades), `auth` (require AUTH with these credentials: a client
 * without them is refused with 530, wrong ones with 535), `reject` (refuse
 * every mail at a stage with an SMTP code, to test error reporting).
 */
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService, { type ConfigChange } from '#services/config/config_service'

/**
 * Turns mail on through an SMTP server on 127.0.0.1:`port`, sending as
 * `noreply@tern.test`, with `extra` settings changed along (through the
 * config service: inside a test's transaction, rolled back with it).
 */
export async function useSmtp(port: number, extra: ConfigChange[] = []): Promise<void> {
  const configService = await app.container.make(ConfigService)
  await configService.update([
    { key: 'smtp.enabled', value: true },
    { key: 'smtp.host', value: '127.0.0.1' },
    { key: 'smtp.port', value: port },
    { key: 'smtp.email', value: 'noreply@tern.test' },
    ...extra,
  ])
}

/** The address list of a received mail's To header. */
export function mailTo(mail: { to?: unknown }): string {
  return String((mail.to as { text?: string } | undefined)?.text ?? '')
}

/** Credentials a server started with `auth` requires. */
export interface SmtpServerCredentials {
  username: string
  password: string
}

/** Makes the server refuse every mail (for error-reporting tests). */
export interface SmtpServerRejection {
  /** The command that is refused: `MAIL FROM`, `RCPT TO` (default) or the message `DATA`. */
  at?: 'mail' | 'rcpt' | 'data'
  /** The SMTP reply code (default 550). */
  code?: number
  /** The reply text (default "No such user here"). */
  message?: string
}

/** Options of `startSmtpServer`. */
export interface SmtpServerOptions {
  /** Implicit TLS from the first byte (like port 465), self-signed certificate. */
  secure?: boolean
  /** Offer STARTTLS (self-signed certificate). Default false: STARTTLS is disabled. */
  startTls?: boolean
  /** Require AUTH with these credentials. Without it AUTH is optional and any login is accepted. */
  auth?: SmtpServerCredentials
  /** Refuse every mail at the given stage. */
  reject?: SmtpServerRejection
}

/** One AUTH attempt the server saw (accepted or not). */
export interface SmtpAuthAttempt {
  method: string
  username: string
  password: string
  accepted: boolean
}

/** A running test SMTP server. */
export interface TestSmtpServer {
  /** The loopback port it listens on (127.0.0.1). */
  port: number
  /** Every accepted mail, parsed (subject, text, html, from, to, ...), in arrival order. */
  messages: ParsedMail[]
  /** Every AUTH attempt, in order. */
  authAttempts: SmtpAuthAttempt[]
  /**
   * The first received mail matching `predicate` (any mail when omitted):
   * one already received, or the next one to arrive. Rejects after
   * `timeoutMs` (default 5000) with an error listing the subjects received.
   */
  waitForMessage(predicate?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>
  /** Forgets the received mails and AUTH attempts. */
  clear(): void
  /** Stops listening and closes the open connections. */
  close(): Promise<void>
}

/** An SMTP error with a reply code, as smtp-server expects it. */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code })
}

/** Starts a test SMTP server on a free loopback port. See the module comment. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = []
  const authAttempts: SmtpAuthAttempt[] = []
  const waiters = new Set<{
    predicate: (mail: ParsedMail) => boolean
    resolve: (mail: ParsedMail) => void
  }>()
  const rejection = options.reject
    ? {
        at: options.reject.at ?? 'rcpt',
        error: () =>
          smtpError(options.reject!.code ?? 550, options.reject!.message ?? 'No such user here'),
      }
    : undefined

  const disabledCommands: string[] = []
  if (!options.startTls && !options.secure) disabledCommands.push('STARTTLS')

  const serverOptions: SMTPServerOptions = {
    secure: options.secure ?? false,
    disabledCommands,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      const username = auth.username ?? ''
      const password = auth.password ?? ''
      const accepted =
        !options.auth || (username === options.auth.username && password === options.auth.password)
      authAttempts.push({ method: auth.method, username, password, accepted })
      if (!accepted) return callback(smtpError(535, 'Authentication credentials invalid'))
      callback(null, { user: username })
    },
    onMailFrom(_address, _session, callback) {
      if (rejection?.at === 'mail') return callback(rejection.error())
      callback()
    },
    onRcptTo(_address, _session, callback) {
      if (rejection?.at === 'rcpt') return callback(rejection.error())
      callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (rejection?.at === 'data') return callback(rejection.error())
          messages.push(mail)
          for (const waiter of waiters) {
            if (waiter.predicate(mail)) {
              waiters.delete(waiter)
              waiter.resolve(mail)
            }
          }
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  }

  const server = new SMTPServer(serverOptions)
  // A client dropping the connection must not crash the test process.
  server.on('error', () => {})
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const port = (server.server.address() as AddressInfo).port

  return {
    port,
    messages,
    authAttempts,
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      const received = messages.find(predicate)
      if (received) return Promise.resolve(received)
      return new Promise<ParsedMail>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: ParsedMail) => {
            clearTimeout(timer)
            resolve(mail)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          const subjects = messages.map((mail) => JSON.stringify(mail.subject ?? '')).join(', ')
          reject(
            new Error(`No matching mail within ${timeoutMs} ms (received: ${subjects || 'none'})`)
          )
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    clear() {
      messages.length = 0
      authAttempts.length = 0
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * For a group of tests that send mail: starts one SMTP server when the group
 * starts (closed when it ends); before each test, forgets the mails received
 * so far and wraps the test in a rolled-back database transaction. The
 * returned object stands for that server (it reads through to it), so it can
 * be kept in a `const` at the group's top.
 */
export function smtpServerPerGroup(group: {
  setup(handler: () => Promise<() => Promise<void>>): unknown
  each: { setup(handler: () => unknown): unknown }
}): TestSmtpServer {
  let server: TestSmtpServer | undefined
  const current = () => {
    if (!server) throw new Error('smtpServerPerGroup: the group has not started')
    return server
  }
  group.setup(async () => {
    server = await startSmtpServer()
    return () => current().close()
  })
  group.each.setup(() => {
    current().clear()
    return testUtils.db().withGlobalTransaction()
  })
  return new Proxy({} as TestSmtpServer, { get: (_target, key) => Reflect.get(current(), key) })
}
