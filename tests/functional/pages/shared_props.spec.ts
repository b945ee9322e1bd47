import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { inertiaVisit } from '#tests/helpers/pages'

test.group('Pages | shared props', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('every page gets user, configVariables, route, colorScheme, language and appUrlConfirmed', async ({
    client,
    assert,
  }) => {
    const page = await inertiaVisit(client, '/?tab=1', 'color_scheme=light; language=fr-FR')
    assert.equal(page.component, 'home')
    assert.sameMembers(Object.keys(page.props), [
      'user',
      'configVariables',
      'route',
      'colorScheme',
      'language',
      'appUrlConfirmed',
    ])
    assert.isNull(page.props.user)
    assert.equal(page.props.route, '/')
    assert.equal(page.props.colorScheme, 'light')
    assert.equal(page.props.language, 'fr-FR')
  })

  test('configVariables are the public variables, as GET /api/configs?ext=1 lists them', async ({
    client,
    assert,
  }) => {
    const page = await inertiaVisit(client, '/')
    const api = await client.get('/api/configs?ext=1')
    // general.appUrl excepted: until it is set, pages carry the request's origin (tests/functional/links/link_base.spec.ts).
    const withoutAppUrl = (variables: { key: string }[]) =>
      variables.filter((variable) => variable.key !== 'general.appUrl')
    assert.deepEqual(withoutAppUrl(page.props.configVariables), withoutAppUrl(api.body()))
    const keys = page.props.configVariables.map((variable: { key: string }) => variable.key)
    assert.includeMembers(keys, [
      'general.appName',
      'general.showHomePage',
      'share.allowRegistration',
    ])
    assert.notInclude(keys, 'general.secureCookies')
  })

  test('user is the public user object of the signed-in user', async ({ client, assert }) => {
    const user = await createUser({ username: 'grace', admin: true })
    const page = await inertiaVisit(client, '/', await accessCookieFor(user))
    assert.deepEqual(page.props.user, {
      id: user.id,
      username: 'grace',
      email: user.email,
      isAdmin: true,
      totpVerified: false,
      hasPassword: true,
    })
  })

  test('an unknown or missing colour scheme is "system"', async ({ client, assert }) => {
    assert.equal((await inertiaVisit(client, '/')).props.colorScheme, 'system')
    assert.equal(
      (await inertiaVisit(client, '/', 'color_scheme=purple')).props.colorScheme,
      'system'
    )
  })
})
