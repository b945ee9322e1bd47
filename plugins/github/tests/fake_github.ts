/**
 * A local HTTP server answering like GitHub for the sign-in flow:
 * `GET /login/oauth/authorize` (approves at once, or answers
 * `error=access_denied` when `deny` is set, like the "Cancel" button),
 * `POST /login/oauth/access_token` (checks client, code, redirect URI and
 * the PKCE verifier against the challenge; a bad code answers 200 with
 * `bad_verification_code` like GitHub), `GET /user` and `GET /user/emails`
 * (`Bearer` or `token` authorization).
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One GitHub account of the fake. */
export interface FakeGithubAccount {
  id: number
  login: string
  emails: { email: string; primary: boolean; verified: boolean }[]
}

/** A running fake. */
export interface FakeGithub {
  url: string
  clientId: string
  clientSecret: string
  /** The account the next authorization approves. */
  account: FakeGithubAccount | null
  /** When true, the next authorizations are cancelled by the user. */
  deny: boolean
  /** The query of the last authorization request. */
  lastAuthorize?: URLSearchParams
  /** The form of the last token request. */
  lastToken?: URLSearchParams
  close(): Promise<void>
}

/** Starts the fake on 127.0.0.1 (random port). */
export async function startFakeGithub(): Promise<FakeGithub> {
  const codes = new Map<
    string,
    { account: FakeGithubAccount; redirectUri: string; challenge: string }
  >()
  const tokens = new Map<string, FakeGithubAccount>()
  const fake = {
    clientId: 'gh-client',
    clientSecret: 'gh-secret',
    account: null,
    deny: false,
  } as FakeGithub

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const readForm = (req: IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk) => chunks.push(chunk))
      req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString())))
    })

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', fake.url)
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
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
          challenge: url.searchParams.get('code_challenge') ?? '',
        })
        redirect.searchParams.set('code', code)
      }
      res.writeHead(302, { location: redirect.toString() })
      return res.end()
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = await readForm(req)
      fake.lastToken = form
      if (
        form.get('client_id') !== fake.clientId ||
        form.get('client_secret') !== fake.clientSecret
      ) {
        return json(res, 200, { error: 'incorrect_client_credentials' })
      }
      const grant = codes.get(form.get('code') ?? '')
      codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (
        !grant ||
        grant.redirectUri !== form.get('redirect_uri') ||
        grant.challenge !== challenge
      ) {
        return json(res, 200, { error: 'bad_verification_code' })
      }
      const token = `gho_${randomBytes(12).toString('hex')}`
      tokens.set(token, grant.account)
      return json(res, 200, {
        access_token: token,
        token_type: 'bearer',
        scope: 'read:user,user:email',
      })
    }
    // GitHub takes `Bearer <token>` and `token <token>` (Ally sends the latter).
    const account = tokens.get((req.headers.authorization ?? '').replace(/^(Bearer|token) /, ''))
    if (!account) return json(res, 401, { message: 'Bad credentials' })
    if (url.pathname === '/user')
      return json(res, 200, { id: account.id, login: account.login, name: null, email: null })
    if (url.pathname === '/user/emails') return json(res, 200, account.emails)
    json(res, 404, { message: 'Not Found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}
