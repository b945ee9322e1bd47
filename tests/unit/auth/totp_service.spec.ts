import { test } from '@japa/runner'
import { generate } from 'otplib'
import TotpService, { TOTP_PARAMETERS } from '#services/auth/totp_service'
import { generateToken, hashToken } from '#services/auth/tokens'

const totpService = new TotpService()

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const NOW = 1_700_000_010 // inside step 56666667
const STEP = Math.floor(NOW / 30)

function codeAt(epoch: number) {
  return generate({ secret: SECRET, ...TOTP_PARAMETERS, epoch })
}

test.group('TOTP service | codes', () => {
  test('accepts the current step and one step of drift either way, and answers the step', async ({
    assert,
  }) => {
    assert.equal(await totpService.matchingStep(SECRET, await codeAt(NOW), null, NOW), STEP)
    assert.equal(
      await totpService.matchingStep(SECRET, await codeAt(NOW - 30), null, NOW),
      STEP - 1
    )
    assert.equal(
      await totpService.matchingStep(SECRET, await codeAt(NOW + 30), null, NOW),
      STEP + 1
    )
  })

  test('refuses codes two steps away', async ({ assert }) => {
    assert.isNull(await totpService.matchingStep(SECRET, await codeAt(NOW - 60), null, NOW))
    assert.isNull(await totpService.matchingStep(SECRET, await codeAt(NOW + 60), null, NOW))
  })

  test('refuses a step not later than the last one used (no replay)', async ({ assert }) => {
    assert.isNull(await totpService.matchingStep(SECRET, await codeAt(NOW), STEP, NOW))
    assert.isNull(await totpService.matchingStep(SECRET, await codeAt(NOW - 30), STEP - 1, NOW))
    assert.equal(await totpService.matchingStep(SECRET, await codeAt(NOW), STEP - 1, NOW), STEP)
  })

  test('refuses malformed codes without throwing', async ({ assert }) => {
    for (const code of ['', '12345', '1234567', 'abcdef', null, 123456, undefined]) {
      assert.isNull(await totpService.matchingStep(SECRET, code, null, NOW))
    }
  })

  test('builds the provisioning URI of authenticator apps', ({ assert }) => {
    const uri = totpService.authUrl(SECRET, 'My Tern', 'alice')
    assert.match(uri, /^otpauth:\/\/totp\/My%20Tern:alice\?/)
    assert.include(uri, `secret=${SECRET}`)
    assert.include(uri, 'issuer=My%20Tern')
  })

  test('new secrets are Base32 with 160 bits', ({ assert }) => {
    const secret = totpService.generateSecret()
    assert.match(secret, /^[A-Z2-7]{32}$/)
    assert.notEqual(secret, totpService.generateSecret())
  })
})

test.group('Tokens | generation and digests', () => {
  test('tokens are random, URL-safe and digested with SHA-256', ({ assert }) => {
    const token = generateToken()
    assert.match(token, /^[A-Za-z0-9_-]{43}$/)
    assert.notEqual(token, generateToken())
    assert.match(hashToken(token), /^[0-9a-f]{64}$/)
    assert.equal(hashToken(token), hashToken(token))
    assert.equal(
      hashToken('abc'),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    )
  })
})
