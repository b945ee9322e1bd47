/**
 * The cross-site refusal of cookie-authenticated writes
 * explains itself: behind a proxy that rewrites the Host header,
 * Pingvin 1.x clients got a bare 403 "Forbidden" on every signed-in write.
 * The 403 now names the origin Tern expects and the setting that fixes it
 * (general.appUrl), and nothing else: not the Host the request arrived with,
 * which may be an internal name set by the proxy.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import ConfigService from '#services/config/config_service'
import { createUser, sessionCookie, sessionFor } from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

/** The 403 body of a request from `origin` while Tern expects `expected`. */
function originRefusal(origin: string, expected: string) {
  return {
    statusCode: 403,
    error: 'Forbidden',
    message:
      `Cross-site request refused: it comes from ${origin}, but signed-in changes are accepted only from ` +
      `${expected} (the setting general.appUrl) or from the host the request was sent to. If you open Tern at ` +
      'that address, for example behind a reverse proxy that changes the Host header, set general.appUrl to it ' +
      '(Admin > Configuration > General > App URL).',
  }
}

test.group('Auth | cross-site refusal message', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a signed-in write whose Origin matches neither the Host nor general.appUrl: 403 naming the expected origin and the setting', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'general.appUrl', value: 'https://files.example.org/tern' }])
    const session = await sessionFor(await createUser())
    /** What a proxy that rewrites Host sends (an address: the dev server's Vite refuses unknown host names). */
    const internalHost = '10.20.30.40:3333'

    const refused = await client
      .patch('/api/users/me')
      .header('Host', internalHost)
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'https://share.example.com')
      .json({ username: 'renamed' })
    refused.assertStatus(403)
    refused.assertBody(originRefusal('https://share.example.com', 'https://files.example.org'))
    assert.notInclude(refused.text(), '10.20.30.40')

    // The fix the message names: general.appUrl set to the address the browser uses.
    await configService.update([{ key: 'general.appUrl', value: 'https://share.example.com' }])
    const accepted = await client
      .patch('/api/users/me')
      .header('Host', internalHost)
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'https://share.example.com')
      .json({ username: 'renamed' })
    accepted.assertStatus(200)
    assert.equal(accepted.body().username, 'renamed')
  })

  test('the same message on the session routes (sign-out) and for an Origin the browser nulled', async ({
    client,
  }) => {
    const session = await sessionFor(await createUser())
    const signOut = await client
      .post('/api/auth/signOut')
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'https://evil.example')
    signOut.assertStatus(403)
    signOut.assertBody(originRefusal('https://evil.example', 'http://localhost:3000'))

    const nulled = await client
      .patch('/api/users/me')
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'null')
      .json({ username: 'renamed' })
    nulled.assertStatus(403)
    nulled.assertBody({
      ...originRefusal('x', 'http://localhost:3000'),
      message: originRefusal('x', 'http://localhost:3000').message.replace(
        'it comes from x',
        'its Origin header is not usable'
      ),
    })
  })

  test('Sec-Fetch-Site: cross-site says the browser reported another site', async ({ client }) => {
    const session = await sessionFor(await createUser())
    const refused = await client
      .patch('/api/users/me')
      .header('Cookie', sessionCookie(session))
      .header('Sec-Fetch-Site', 'cross-site')
      .json({ username: 'renamed' })
    refused.assertStatus(403)
    refused.assertBody({
      statusCode: 403,
      error: 'Forbidden',
      message:
        'Cross-site request refused: the browser reports that it comes from a page of another site ' +
        '(Sec-Fetch-Site: cross-site). Signed-in changes are accepted only from pages of http://localhost:3000 ' +
        '(the setting general.appUrl).',
    })
  })
})
