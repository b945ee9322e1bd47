/**
 * OidcDriver (an Ally `Oauth2Driver`) on its own, against a local HTTP
 * server that answers like an OpenID provider (discovery, JWKS, token
 * endpoint) with ID tokens crafted per test: signature, issuer, audience,
 * nonce and expiry are each refused with `invalid_token`; token-endpoint
 * failures map to `expired_token` / `cannot_get_user_info`. The driver runs
 * on a real HttpContext of the callback request; state and PKCE are the
 * core's (tests/functional), so it runs stateless here.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createServer, IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Socket } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose'
import { SocialLoginException } from '#extensions/auth/main'
import { OidcDriver, clearDiscoveryCache } from '../../index.js'

interface FakeIdp {
  origin: string
  /** What the token endpoint answers next. */
  answer: { status: number; body: Record<string, unknown> }
  /** The last token request (form fields and Authorization header). */
  lastTokenRequest?: { form: URLSearchParams; authorization?: string }
  /** `token_endpoint_auth_methods_supported` of the discovery document (unset: not announced). */
  authMethods?: string[]
  /** What the userinfo endpoint answers; unset: the provider announces none. */
  userinfo?: Record<string, unknown>
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
          token_endpoint_auth_methods_supported: state.authMethods,
          userinfo_endpoint: state.userinfo ? `${state.origin}/userinfo` : undefined,
        })
      }
      if (req.url === '/jwks') return json(200, { keys: [jwk] })
      if (req.url === '/userinfo' && state.userinfo && req.headers.authorization === 'Bearer at') {
        return json(200, state.userinfo)
      }
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
  return new SignJWT({
    email: 'a@example.com',
    email_verified: true,
    nonce: 'the-nonce',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(claims.iss ?? idp.origin)
    .setAudience(claims.aud ?? 'client-1')
    .setSubject(claims.sub ?? 'subject-1')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(options.signer ?? key)
}

/** The driver on an HttpContext of `GET /api/oauth/callback/oidc?<query>`. */
async function driver(query = 'code=the-code&state=st') {
  const req = new IncomingMessage(new Socket())
  req.method = 'GET'
  req.url = `/api/oauth/callback/oidc?${query}`
  const ctx = await testUtils.createHttpContext({ req })
  return new OidcDriver(ctx, {
    discoveryUri: `${idp.origin}/.well-known/openid-configuration`,
    clientId: 'client-1',
    clientSecret: 's3cret:x',
    scope: 'email profile',
    callbackUrl: 'http://tern.test/api/oauth/callback/oidc',
    nonce: 'the-nonce',
  }).stateless()
}

async function profileError(): Promise<string> {
  try {
    await (await driver()).user()
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

  test('builds the authorization URL from discovery with openid scope and the nonce', async ({
    assert,
  }) => {
    const url = new URL(await (await driver()).redirectUrl())
    assert.equal(url.origin + url.pathname, `${idp.origin}/authorize`)
    assert.equal(url.searchParams.get('scope'), 'openid email profile')
    assert.equal(url.searchParams.get('response_type'), 'code')
    assert.equal(url.searchParams.get('nonce'), 'the-nonce')
    assert.equal(url.searchParams.get('client_id'), 'client-1')
    assert.equal(url.searchParams.get('redirect_uri'), 'http://tern.test/api/oauth/callback/oidc')
  })

  test('accepts a valid ID token and sends the code and client credentials (client_secret_basic)', async ({
    assert,
  }) => {
    idp.answer = {
      status: 200,
      body: {
        access_token: 'at',
        token_type: 'Bearer',
        id_token: await idToken({ preferred_username: 'alice' }),
      },
    }
    const user = await (await driver()).user()
    assert.deepInclude(user, {
      id: 'subject-1',
      nickName: 'alice',
      email: 'a@example.com',
      emailVerificationState: 'verified',
    })
    assert.equal(user.token.token, 'at')
    assert.equal(user.token.idToken.split('.').length, 3)
    assert.equal(idp.lastTokenRequest!.form.get('code'), 'the-code')
    assert.equal(
      idp.lastTokenRequest!.form.get('redirect_uri'),
      'http://tern.test/api/oauth/callback/oidc'
    )
    assert.equal(idp.lastTokenRequest!.form.get('grant_type'), 'authorization_code')
    assert.isNull(idp.lastTokenRequest!.form.get('client_secret'))
    assert.equal(
      idp.lastTokenRequest!.authorization,
      `Basic ${Buffer.from('client-1:s3cret%3Ax').toString('base64')}`
    )
  })

  test('client_secret_post when it is all the provider offers', async ({ assert }) => {
    idp.authMethods = ['client_secret_post']
    clearDiscoveryCache()
    try {
      idp.answer = { status: 200, body: { access_token: 'at', id_token: await idToken({}) } }
      await (await driver()).user()
      assert.equal(idp.lastTokenRequest!.form.get('client_id'), 'client-1')
      assert.equal(idp.lastTokenRequest!.form.get('client_secret'), 's3cret:x')
      assert.isUndefined(idp.lastTokenRequest!.authorization)
    } finally {
      idp.authMethods = undefined
      clearDiscoveryCache()
    }
  })

  test('userinfo claims are merged under the ID token claims; another subject is invalid_token', async ({
    assert,
  }) => {
    idp.userinfo = {
      sub: 'subject-1',
      name: 'Alice Liddell',
      email: 'spoofed@example.com',
      picture: 'https://cdn.example/a.png',
    }
    clearDiscoveryCache()
    try {
      idp.answer = { status: 200, body: { access_token: 'at', id_token: await idToken({}) } }
      const user = await (await driver()).user()
      assert.deepInclude(user, {
        name: 'Alice Liddell',
        email: 'a@example.com',
        avatarUrl: 'https://cdn.example/a.png',
      })
      idp.userinfo = { sub: 'someone-else', name: 'Mallory' }
      assert.equal(await profileError(), 'invalid_token')
    } finally {
      idp.userinfo = undefined
      clearDiscoveryCache()
    }
  })

  test('refuses a token signed with another key', async ({ assert }) => {
    idp.answer = {
      status: 200,
      body: { access_token: 'at', id_token: await idToken({}, { signer: foreignKey }) },
    }
    assert.equal(await profileError(), 'invalid_token')
  })

  test('refuses another issuer, another audience (or azp), another nonce, an expired token', async ({
    assert,
  }) => {
    for (const [claims, options] of [
      [{ iss: 'http://evil.test' }, {}],
      [{ aud: 'other-client' }, {}],
      [{ aud: ['client-1', 'other-client'] }, {}],
      [{ aud: ['client-1', 'other-client'], azp: 'other-client' }, {}],
      [{ nonce: 'replayed' }, {}],
      [{}, { expiresIn: '-5m' }],
    ] satisfies Array<[JWTPayload, { expiresIn?: string }]>) {
      idp.answer = {
        status: 200,
        body: { access_token: 'at', id_token: await idToken(claims, options) },
      }
      assert.equal(await profileError(), 'invalid_token', JSON.stringify(claims))
    }
  })

  test('several audiences are accepted when azp is this client', async ({ assert }) => {
    idp.answer = {
      status: 200,
      body: {
        access_token: 'at',
        id_token: await idToken({ aud: ['client-1', 'api'], azp: 'client-1' }),
      },
    }
    assert.equal((await (await driver()).user()).id, 'subject-1')
  })

  test('email_verified false is reported as unverified', async ({ assert }) => {
    idp.answer = {
      status: 200,
      body: { access_token: 'at', id_token: await idToken({ email_verified: false }) },
    }
    const user = await (await driver()).user()
    assert.equal(user.emailVerificationState, 'unverified')
  })

  test('a callback without code is refused before any token request', async ({ assert }) => {
    idp.lastTokenRequest = undefined
    const refused = async (query: string) => {
      try {
        await (await driver(query)).user()
      } catch (error) {
        if (error instanceof SocialLoginException) return error.errorCode
        throw error
      }
      return 'no error'
    }
    assert.equal(await refused('error=access_denied&state=st'), 'access_denied')
    assert.equal(await refused('state=st'), 'invalid_token')
    assert.isUndefined(idp.lastTokenRequest)
  })

  test('token endpoint failures: invalid_grant is expired_token, others cannot_get_user_info', async ({
    assert,
  }) => {
    idp.answer = { status: 400, body: { error: 'invalid_grant' } }
    assert.equal(await profileError(), 'expired_token')
    idp.answer = { status: 500, body: { error: 'server_error' } }
    assert.equal(await profileError(), 'cannot_get_user_info')
    idp.answer = { status: 200, body: { access_token: 'no-id-token' } }
    assert.equal(await profileError(), 'cannot_get_user_info')
  })
})
