/**
 * OidcDriver's checks of the ID token, against a local HTTP server that
 * answers like an OpenID provider (discovery, JWKS, token endpoint) with ID
 * tokens crafted per test: signature, issuer, audience, nonce and expiry
 * are each refused with `invalid_token`; token-endpoint failures map to
 * `expired_token` / `cannot_get_user_info`.
 */
import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose'
import { SocialLoginException } from '#extensions/auth/main'
import { OidcDriver, clearDiscoveryCache } from '../../index.js'

interface FakeIdp {
  origin: string
  /** What the token endpoint answers next. */
  answer: { status: number; body: Record<string, unknown> }
  /** The last token request (form fields and Authorization header). */
  lastTokenRequest?: { form: URLSearchParams; authorization?: string }
  server: Server
}

let idp: FakeIdp
let key: CryptoKey
let foreignKey: CryptoKey

async function startFakeIdp(): Promise<FakeIdp> {
  const pair = await generateKeyPair('RS256')
  key = pair.privateKey
  foreignKey = (await generateKeyPair('RS256')).privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  const state = { answer: { status: 200, body: {} } } as FakeIdp
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.url === '/.well-known/openid-configuration') {
        return json(200, {
          issuer: state.origin,
          authorization_endpoint: `${state.origin}/authorize`,
          token_endpoint: `${state.origin}/token`,
          jwks_uri: `${state.origin}/jwks`,
        })
      }
      if (req.url === '/jwks') return json(200, { keys: [jwk] })
      if (req.url === '/token') {
        state.lastTokenRequest = {
          form: new URLSearchParams(Buffer.concat(chunks).toString()),
          authorization: req.headers.authorization,
        }
        return json(state.answer.status, state.answer.body)
      }
      json(404, {})
    })
  })
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve))
  state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`
  return state
}

function idToken(claims: JWTPayload, options: { signer?: CryptoKey; expiresIn?: string } = {}) {
  return new SignJWT({ email: 'a@example.com', email_verified: true, nonce: 'the-nonce', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(claims.iss ?? idp.origin)
    .setAudience(claims.aud ?? 'client-1')
    .setSubject(claims.sub ?? 'subject-1')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(options.signer ?? key)
}

function driver() {
  return new OidcDriver({
    discoveryUri: `${idp.origin}/.well-known/openid-configuration`,
    clientId: 'client-1',
    clientSecret: 's3cret:x',
    scope: 'email profile',
    callbackUrl: 'http://tern.test/api/oauth/callback/oidc',
  })
}

async function profileError(): Promise<string> {
  try {
    await driver().profile({ code: 'the-code', codeVerifier: 'the-verifier', nonce: 'the-nonce' })
  } catch (error) {
    if (error instanceof SocialLoginException) return error.errorCode
    throw error
  }
  return 'no error'
}

test.group('OidcDriver', (group) => {
  group.setup(async () => {
    idp = await startFakeIdp()
    return () => {
      clearDiscoveryCache()
      return new Promise<void>((resolve) => idp.server.close(() => resolve()))
    }
  })

  test('builds the authorization URL with openid scope, PKCE, state and nonce', async ({ assert }) => {
    const url = new URL(await driver().authorizationUrl({ state: 'st', nonce: 'no', codeChallenge: 'ch' }))
    assert.equal(url.origin + url.pathname, `${idp.origin}/authorize`)
    assert.equal(url.searchParams.get('scope'), 'openid email profile')
    assert.equal(url.searchParams.get('state'), 'st')
    assert.equal(url.searchParams.get('nonce'), 'no')
    assert.equal(url.searchParams.get('code_challenge'), 'ch')
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
    assert.equal(url.searchParams.get('redirect_uri'), 'http://tern.test/api/oauth/callback/oidc')
  })

  test('accepts a valid ID token and sends code, verifier and client credentials', async ({ assert }) => {
    idp.answer = { status: 200, body: { id_token: await idToken({ preferred_username: 'alice' }) } }
    const profile = await driver().profile({ code: 'the-code', codeVerifier: 'the-verifier', nonce: 'the-nonce' })
    assert.deepInclude(profile, { id: 'subject-1', username: 'alice', email: 'a@example.com', emailVerified: true })
    assert.equal(idp.lastTokenRequest!.form.get('code'), 'the-code')
    assert.equal(idp.lastTokenRequest!.form.get('code_verifier'), 'the-verifier')
    assert.equal(idp.lastTokenRequest!.form.get('grant_type'), 'authorization_code')
    assert.equal(
      idp.lastTokenRequest!.authorization,
      `Basic ${Buffer.from('client-1:s3cret%3Ax').toString('base64')}`
    )
  })

  test('refuses a token signed with another key', async ({ assert }) => {
    idp.answer = { status: 200, body: { id_token: await idToken({}, { signer: foreignKey }) } }
    assert.equal(await profileError(), 'invalid_token')
  })

  test('refuses another issuer, another audience, another nonce, an expired token', async ({ assert }) => {
    for (const [claims, options] of [
      [{ iss: 'http://evil.test' }, {}],
      [{ aud: 'other-client' }, {}],
      [{ nonce: 'replayed' }, {}],
      [{}, { expiresIn: '-5m' }],
    ] as const) {
      idp.answer = { status: 200, body: { id_token: await idToken(claims, options) } }
      assert.equal(await profileError(), 'invalid_token', JSON.stringify(claims))
    }
  })

  test('email_verified false is reported as unverified', async ({ assert }) => {
    idp.answer = { status: 200, body: { id_token: await idToken({ email_verified: false }) } }
    const profile = await driver().profile({ code: 'c', codeVerifier: 'v', nonce: 'the-nonce' })
    assert.isFalse(profile.emailVerified)
  })

  test('token endpoint failures: invalid_grant is expired_token, others cannot_get_user_info', async ({ assert }) => {
    idp.answer = { status: 400, body: { error: 'invalid_grant' } }
    assert.equal(await profileError(), 'expired_token')
    idp.answer = { status: 500, body: { error: 'server_error' } }
    assert.equal(await profileError(), 'cannot_get_user_info')
    idp.answer = { status: 200, body: { access_token: 'no-id-token' } }
    assert.equal(await profileError(), 'cannot_get_user_info')
  })
})
