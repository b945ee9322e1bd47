/**
 * The sign-in page while LDAP is on: the password form stays under
 * `oauth.disablePassword`, since LDAP accounts sign in with it (rendered
 * server-side, no directory needed).
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import ConfigService from '#services/config/config_service'
import { html } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

test.group('LDAP plugin | sign-in page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('keeps the password form under oauth.disablePassword while LDAP is on, hides it when LDAP is off', async ({
    client,
    assert,
  }) => {
    await configService.update([
      { key: 'oauth.disablePassword', value: true },
      { key: 'ldap.enabled', value: true },
    ])
    const withLdap = html((await client.get('/auth/signIn')).text())
    assert.include(withLdap, 'type="password"')
    await configService.update([{ key: 'ldap.enabled', value: false }])
    const withoutLdap = html((await client.get('/auth/signIn')).text())
    assert.include(withoutLdap, '<title data-inertia="">Sign in - Tern</title>')
    assert.notInclude(withoutLdap, 'type="password"')
  })
})
