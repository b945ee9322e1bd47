/**
 * A local HTTP server answering like GitHub for the sign-in flow:
 * `GET /login/oauth/authorize` (approves at once, or answers
 * `error=access_denied` when `deny` is set, like the "Cancel" button),
 * `POST /login/oauth/access_token` (checks client, code, redirect URI and
 * the PKCE verifier against the challenge; a bad code answers 200 with
 * `bad_verification_code` like GitHub), `GET /user` and `GET /user/emails`
 * (`Bearer` or `token` authorization).
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import {
  authorize,
  challengeOf,
  json,
  listenLocally,
  readForm,
  takeGrant,
  type FakeGrant,
} from '#tests/helpers/fake_oauth2'

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
  const codes = new Map<string, FakeGrant<FakeGithubAccount>>()
  const tokens = new Map<string, FakeGithubAccount>()
  const fake = {
    clientId: 'gh-client',
    clientSecret: 'gh-secret',
    account: null,
    deny: false,
  } as FakeGithub

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', fake.url)
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize')
      return authorize(fake, url, codes, res)
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = await readForm(req)
      fake.lastToken = form
      if (
        form.get('client_id') !== fake.clientId ||
        form.get('client_secret') !== fake.clientSecret
      ) {
        return json(res, 200, { error: 'incorrect_client_credentials' })
      }
      const grant = takeGrant(codes, form)
      // GitHub's flow always has a challenge: a code without one never matches.
      if (
        !grant ||
        grant.redirectUri !== form.get('redirect_uri') ||
        grant.challenge !== challengeOf(form)
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
  Object.assign(fake, await listenLocally(server))
  return fake
}
