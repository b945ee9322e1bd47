/**
 * Keeping secrets out of logs. Request paths carry
 * bearer secrets (reset, login and reverse-share tokens, OAuth codes), and
 * database errors carry the SQL's bound values (password and token hashes,
 * e-mail addresses). Everything written to a log passes through here: the
 * request log, pino's `err` serializer and its message hook (config/logger.ts).
 */
import { stdSerializers } from 'pino'

/** What replaces a secret. */
export const REDACTED = '[redacted]'

/**
 * Path prefixes whose next segment is a secret (a bearer token or an e-mail
 * address), with the words after them that are fixed routes, not secrets.
 */
const SECRET_SEGMENTS: { prefix: string; keep?: string[] }[] = [
  { prefix: '/api/auth/resetPassword/' },
  { prefix: '/auth/resetPassword/' },
  { prefix: '/api/auth/totp/', keep: ['enable', 'verify', 'disable'] },
  { prefix: '/auth/totp/' },
  { prefix: '/api/reverseShares/' },
  { prefix: '/upload/' },
]

const SECRET_PATH = new RegExp(
  `(${SECRET_SEGMENTS.map(({ prefix }) => prefix.replace(/[/]/g, '\\/')).join('|')})([^/?#\\s"'<>]+)`,
  'g'
)

/** Query parameters that carry a secret (OAuth code/state, any token, a password). */
const SECRET_QUERY =
  /([?&](?:[\w.-]*token[\w.-]*|code|state|password|secret|key|signature)=)[^&#\s"'<>]*/gi

/** Replaces the secret path segments and query values of every URL in `text`. */
export function redactText(text: string): string {
  return text
    .replace(SECRET_PATH, (match, prefix: string, segment: string) => {
      const rule = SECRET_SEGMENTS.find((candidate) => candidate.prefix === prefix)
      return rule?.keep?.includes(segment) ? match : `${prefix}${REDACTED}`
    })
    .replace(SECRET_QUERY, `$1${REDACTED}`)
}

/** Driver error codes and fields that mark an error as coming from the database. */
function isDatabaseError(error: Record<string, unknown>): boolean {
  const code = typeof error.code === 'string' ? error.code : ''
  return (
    /^(ER_|SQLITE_)/.test(code) ||
    'sqlState' in error ||
    'sqlMessage' in error ||
    'sql' in error ||
    'bindings' in error ||
    ('severity' in error && 'routine' in error)
  )
}

/**
 * The message of a database error without values: quoted literals (MySQL's
 * "Duplicate entry '…'", SQL compiled with its bindings), password hashes
 * and long token-like runs are replaced. Identifiers (`table`.`column`) stay.
 */
export function redactSqlMessage(message: string): string {
  return message
    .replace(/[xX]?'(?:[^'\\]|\\.|'')*'/g, `'${REDACTED}'`)
    .replace(/\$(argon2\w*|scrypt|bcrypt|2[aby])\$[^\s'"]+/g, REDACTED)
    .replace(/[A-Za-z0-9_+=-]{32,}/g, REDACTED)
}

/** Fields a database error may carry that hold the statement or its values. */
const DATABASE_FIELDS = [
  'sql',
  'bindings',
  'parameters',
  'detail',
  'where',
  'internalQuery',
  'values',
]

/**
 * pino's `err` serializer with redaction: URLs in any error's message and
 * stack lose their secrets; database errors also lose their bound values
 * and the fields that carry the statement.
 */
export function serializeError(error: unknown): unknown {
  if (!error || typeof error !== 'object') return error
  const serialized = stdSerializers.err(error as Error) as unknown as Record<string, unknown>
  const database = isDatabaseError(error as Record<string, unknown>)
  const clean = (text: string) => (database ? redactSqlMessage(redactText(text)) : redactText(text))
  for (const field of DATABASE_FIELDS) {
    if (database && field in serialized) serialized[field] = REDACTED
  }
  if (typeof serialized.message === 'string') serialized.message = clean(serialized.message)
  if (typeof serialized.sqlMessage === 'string')
    serialized.sqlMessage = clean(serialized.sqlMessage)
  if (typeof serialized.stack === 'string') {
    // The stack repeats the message: only that part may hold values (paths stay readable).
    const original = (error as { message?: unknown }).message
    let stack = serialized.stack
    if (database && typeof original === 'string' && original)
      stack = stack.split(original).join(clean(original))
    serialized.stack = redactText(stack)
  }
  if (serialized.cause) serialized.cause = serializeError((error as { cause?: unknown }).cause)
  return serialized
}

/**
 * pino `hooks.logMethod`: the message and format arguments of every log call
 * lose URL secrets; a message that quotes SQL (the exception handler logs an
 * error's message as the line's message) loses its values too.
 */
export function redactLogArguments(args: unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg !== 'string') return arg
    const text = redactText(arg)
    return /\b(insert into|update|delete from|select)\b[\s\S]* - /i.test(text) ||
      /\b(ER_|SQLITE_)[A-Z_]+/.test(text)
      ? redactSqlMessage(text)
      : text
  })
}
