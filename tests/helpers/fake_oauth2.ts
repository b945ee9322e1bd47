/**
 * A local HTTP server answering like an OAuth 2 provider (Google, Discord):
 * an authorization endpoint that approves the current `account` at once (or
 * answers `error=access_denied` when `deny` is set, like a "Cancel"
 * button), a token endpoint that checks the client credentials, the
 * redirect URI and (when a challenge was sent) the PKCE verifier, and JSON
 * API routes answered from the account for a valid Bearer token.
 *
 * ```ts
 * const google = await startFakeOauth2({
 *   authorizePath: '/o/oauth2/v2/auth',
 *   tokenPath: '/token',
 *   api: { '/v1/userinfo': (account) => ({ sub: account.id, email: account.email }) },
 * })
 * google.account = { id: '1', email: 'a@example.com' }
 * ```
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An account of the fake: whatever the API routes read. */
export type FakeAccount = Record<string, unknown>

/** Options of `startFakeOauth2`. */
export interface FakeOauth2Options {
  authorizePath: string
  tokenPath: string
  /** path → answer for the account of the Bearer token. */
  api: Record<string, (account: FakeAccount) => unknown>
  /** How the client authenticates at the token endpoint (default: either). */
  clientAuth?: 'basic' | 'post'
}

/** A running fake. */
export interface FakeOauth2 {
  url: string
  clientId: string
  clientSecret: string
  account: FakeAccount | null
  deny: boolean
  /** The query of the last authorization request. */
  lastAuthorize?: URLSearchParams
  close(): Promise<void>
}

/** Answers `body` as JSON with `status`. */
export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The url-encoded form a request posted. */
export function readForm(req: IncomingMessage) {
  return new Promise<URLSearchParams>((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString())))
  })
}

/** A code the authorization endpoint handed out: for whom, to where, with which PKCE challenge. */
export interface FakeGrant<Account> {
  account: Account
  redirectUri: string
  challenge: string | null
}

/**
 * The authorization endpoint of a fake provider: records the query in
 * `fake.lastAuthorize` and redirects back with `state` and a new code for
 * `fake.account` (kept in `codes`), or with `error=access_denied` when
 * `fake.deny` is set, the client id is not the fake's or there is no account.
 */
export function authorize<Account>(
  fake: {
    clientId: string
    account: Account | null
    deny: boolean
    lastAuthorize?: URLSearchParams
  },
  url: URL,
  codes: Map<string, FakeGrant<Account>>,
  res: ServerResponse
) {
  fake.lastAuthorize = url.searchParams
  const redirect = new URL(url.searchParams.get('redirect_uri')!)
  redirect.searchParams.set('state', url.searchParams.get('state') ?? '')
  if (fake.deny || url.searchParams.get('client_id') !== fake.clientId || !fake.account) {
    redirect.searchParams.set('error', 'access_denied')
  } else {
    const code = randomBytes(10).toString('hex')
    codes.set(code, {
      account: fake.account,
      redirectUri: url.searchParams.get('redirect_uri')!,
      challenge: url.searchParams.get('code_challenge'),
    })
    redirect.searchParams.set('code', code)
  }
  res.writeHead(302, { location: redirect.toString() })
  res.end()
}

/** Takes the grant of the posted code (a code serves once), or undefined. */
export function takeGrant<Account>(codes: Map<string, FakeGrant<Account>>, form: URLSearchParams) {
  const grant = codes.get(form.get('code') ?? '')
  codes.delete(form.get('code') ?? '')
  return grant
}

/** The S256 challenge of the posted `code_verifier`. */
export function challengeOf(form: URLSearchParams): string {
  return createHash('sha256')
    .update(form.get('code_verifier') ?? '')
    .digest('base64url')
}

/** Listens on 127.0.0.1 (random port); resolves to the server's URL and a close that drops open connections. */
export async function listenLocally(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Starts the fake on 127.0.0.1 (random port). */
export async function startFakeOauth2(options: FakeOauth2Options): Promise<FakeOauth2> {
  const codes = new Map<string, FakeGrant<FakeAccount>>()
  const tokens = new Map<string, FakeAccount>()
  const fake = {
    clientId: 'fake-client',
    clientSecret: 'fake-secret',
    account: null,
    deny: false,
  } as FakeOauth2

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', fake.url)
    if (req.method === 'GET' && url.pathname === options.authorizePath)
      return authorize(fake, url, codes, res)
    if (req.method === 'POST' && url.pathname === options.tokenPath) {
      const form = await readForm(req)
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
      const [basicId, basicSecret] = basic
        ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
        : []
      const id =
        options.clientAuth === 'post' ? form.get('client_id') : (basicId ?? form.get('client_id'))
      const secret =
        options.clientAuth === 'post'
          ? form.get('client_secret')
          : (basicSecret ?? form.get('client_secret'))
      if (id !== fake.clientId || secret !== fake.clientSecret)
        return json(res, 401, { error: 'invalid_client' })
      const grant = takeGrant(codes, form)
      const challengeOk = grant?.challenge === null || grant?.challenge === challengeOf(form)
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || !challengeOk) {
        return json(res, 400, { error: 'invalid_grant' })
      }
      const token = randomBytes(12).toString('hex')
      tokens.set(token, grant.account)
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 })
    }
    const route = options.api[url.pathname]
    const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''))
    if (!route) return json(res, 404, { message: 'Not Found' })
    if (!account) return json(res, 401, { message: 'Unauthorized' })
    json(res, 200, route(account))
  })
  Object.assign(fake, await listenLocally(server))
  return fake
}
