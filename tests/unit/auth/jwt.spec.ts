/**
 * The HS256 JWT helpers (jose underneath): the exact token format, the claim
 * checks and the refusal of every other algorithm.
 */
import { test } from '@japa/runner'
import { createHmac } from 'node:crypto'
import { signJwt, verifyJwt } from '#services/auth/jwt'

const SECRET = 'unit-test-secret-with-enough-entropy-0123456789'

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A token built by hand: `header`.`payload` signed with HMAC-SHA256 of `secret`. */
function handMade(header: unknown, payload: unknown, secret = SECRET) {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}

test.group('Auth | JWT', () => {
  test('signs with the header and the claims as given, byte for byte', async ({ assert }) => {
    const claims = {
      sub: 'u1',
      email: 'zoë@exämple.org',
      isAdmin: false,
      refreshTokenId: null,
      iat: 1000,
      exp: 1900,
    }
    const token = await signJwt(claims, SECRET)
    assert.equal(token, handMade({ alg: 'HS256', typ: 'JWT' }, claims))
    assert.deepEqual(await verifyJwt(token, SECRET, 1000), claims)
  })

  test('checks exp and nbf against the clock; a clock of 0 ignores expiry', async ({ assert }) => {
    const token = await signJwt({ sub: 'u1', iat: 1000, exp: 1900 }, SECRET)
    assert.isNotNull(await verifyJwt(token, SECRET, 1899))
    assert.isNull(await verifyJwt(token, SECRET, 1900))
    assert.isNull(await verifyJwt(token, SECRET))
    assert.isNotNull(await verifyJwt(token, SECRET, 0))

    const later = await signJwt({ sub: 'u1', nbf: 2000 }, SECRET)
    assert.isNull(await verifyJwt(later, SECRET, 1999))
    assert.isNotNull(await verifyJwt(later, SECRET, 2000))
    assert.isNull(await verifyJwt(await signJwt({ exp: 'never' } as any, SECRET), SECRET, 1000))
  })

  test('refuses another secret, a changed payload and malformed tokens', async ({ assert }) => {
    const token = await signJwt({ shareId: 's1', iat: 1000 }, SECRET)
    assert.isNull(await verifyJwt(token, 'another-secret', 1000))
    const [header, , signature] = token.split('.')
    assert.isNull(
      await verifyJwt(`${header}.${b64({ shareId: 's2', iat: 1000 })}.${signature}`, SECRET, 1000)
    )
    for (const bad of [
      '',
      'a.b',
      'a.b.c',
      `${token}.x`,
      `${header}.${b64([1, 2])}.${signature}`,
      undefined as any,
    ]) {
      assert.isNull(await verifyJwt(bad, SECRET, 1000), String(bad))
    }
    assert.isNull(
      await verifyJwt(handMade({ alg: 'HS256', typ: 'JWT' }, 'just a string'), SECRET, 1000)
    )
  })

  test('refuses every algorithm but HS256, even when signed with the secret', async ({
    assert,
  }) => {
    const claims = { sub: 'u1', iat: 1000 }
    assert.isNotNull(await verifyJwt(handMade({ alg: 'HS256', typ: 'JWT' }, claims), SECRET, 1000))
    assert.isNull(
      await verifyJwt(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, SECRET, 1000)
    )
    for (const alg of ['RS256', 'HS384', 'HS512', 'ES256', 'none']) {
      assert.isNull(await verifyJwt(handMade({ alg, typ: 'JWT' }, claims), SECRET, 1000), alg)
    }
    const hs512 = `${b64({ alg: 'HS512' })}.${b64(claims)}`
    const signedHs512 = `${hs512}.${createHmac('sha512', SECRET).update(hs512).digest('base64url')}`
    assert.isNull(await verifyJwt(signedHs512, SECRET, 1000))
  })
})
