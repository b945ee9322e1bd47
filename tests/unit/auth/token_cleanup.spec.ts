import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import RefreshToken from '#models/refresh_token'
import LoginToken from '#models/login_token'
import PasswordResetToken from '#models/password_reset_token'
import AuthTokenCleanup from '#services/auth/token_cleanup'
import { generateToken, hashToken } from '#services/auth/tokens'
import { createUser } from '#tests/helpers/auth'

test.group('Auth tokens | cleanup', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('deletes expired sessions, spent or expired login tokens and expired reset tokens only', async ({
    assert,
  }) => {
    const user = await createUser()
    const past = DateTime.utc().minus({ minutes: 1 })
    const future = DateTime.utc().plus({ minutes: 10 })
    const token = () => hashToken(generateToken())

    const liveSession = await RefreshToken.create({
      userId: user.id,
      tokenHash: token(),
      expiresAt: future,
    })
    await RefreshToken.create({ userId: user.id, tokenHash: token(), expiresAt: past })
    const liveLogin = await LoginToken.create({
      userId: user.id,
      tokenHash: token(),
      expiresAt: future,
    })
    await LoginToken.create({ userId: user.id, tokenHash: token(), expiresAt: past })
    await LoginToken.create({
      userId: user.id,
      tokenHash: token(),
      expiresAt: future,
      usedAt: DateTime.utc(),
    })
    const liveReset = await PasswordResetToken.create({
      userId: user.id,
      tokenHash: token(),
      expiresAt: future,
    })
    await PasswordResetToken.create({ userId: user.id, tokenHash: token(), expiresAt: past })

    assert.deepEqual(await new AuthTokenCleanup().purgeExpired(), {
      refreshTokens: 1,
      loginTokens: 2,
      passwordResetTokens: 1,
    })
    assert.deepEqual(
      (await RefreshToken.all()).map((row) => row.id),
      [liveSession.id]
    )
    assert.deepEqual(
      (await LoginToken.all()).map((row) => row.id),
      [liveLogin.id]
    )
    assert.deepEqual(
      (await PasswordResetToken.all()).map((row) => row.id),
      [liveReset.id]
    )
  })
})
