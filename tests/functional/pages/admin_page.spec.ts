/**
 * The administration panel's HTML shell (`/admin`, `/admin/*`): the same
 * client-rendered page for everyone (who may use the panel is decided by the
 * API in the browser), with the admin entry of Vite, no app header, and boot
 * data that holds nothing reserved to admins.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { scriptSafeJson } from '#services/pages/admin_shell'
import { accessCookieFor, createUser } from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

/** The JSON of `<script id="tern-admin-boot">`. */
function bootData(html: string): Record<string, unknown> {
  const match = /<script id="tern-admin-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(
    html
  )
  if (!match) throw new Error('no boot data in the page')
  return JSON.parse(match[1])
}

test.group('Pages | admin shell', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET {$self} answers the SPA shell with the admin entry and no app header')
    .with([
      '/admin',
      '/admin/',
      '/admin/users',
      '/admin/config/smtp',
      '/admin/shares',
      '/admin/no/such/page',
    ])
    .run(async ({ client, assert }, path) => {
      const response = await client.get(path)
      response.assertStatus(200)
      assert.match(response.header('content-type') ?? '', /^text\/html/)
      assert.equal(response.header('cache-control'), 'no-store')
      const html = response.text()
      assert.include(html, '<div id="admin-root"></div>')
      assert.match(html, /<script type="module"[^>]* src="[^"]*inertia\/admin\/main\.tsx"/)
      assert.notInclude(html, 'inertia/app.tsx')
      assert.notInclude(html, 'tern-header')
      assert.notInclude(html, 'data-page=')
      assert.include(html, '<link rel="icon" href="/img/favicon.png"')
    })

  test('visitors, users and admins all get the shell (200): the API decides access', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const admin = await createUser({ admin: true })
    for (const cookie of [null, await accessCookieFor(user), await accessCookieFor(admin)]) {
      const request = client.get('/admin/users')
      const response = await (cookie ? request.header('Cookie', cookie) : request)
      response.assertStatus(200)
      assert.include(response.text(), '<div id="admin-root"></div>')
    }
  })

  test('the boot data has the language, colour scheme, app name and confirmed public address, and nothing for admins only', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'general.appName', value: 'Ours </script><b>' }])
    const response = await client
      .get('/admin/config/general')
      .header('Cookie', 'language=de-DE; color_scheme=dark')
    const html = response.text()
    assert.include(html, '<html lang="de-DE" dir="ltr" data-color-scheme="dark" data-theme="dark"')
    assert.include(html, '<title>Ours &lt;/script&gt;&lt;b&gt;</title>')
    assert.notInclude(html, 'Ours </script>')
    assert.deepEqual(bootData(html), {
      language: 'de-DE',
      colorScheme: 'dark',
      appName: 'Ours </script><b>',
      appUrl: null,
    })
  })

  test('the browser language decides when there is no language cookie; right-to-left for Arabic', async ({
    client,
    assert,
  }) => {
    const french = (await client.get('/admin').header('Accept-Language', 'fr-CH,fr;q=0.9')).text()
    assert.include(
      french,
      '<html lang="fr-FR" dir="ltr" data-color-scheme="system" data-theme="light"'
    )
    assert.equal(bootData(french).language, 'fr-FR')
    const arabic = (await client.get('/admin').header('Cookie', 'language=ar-EG')).text()
    assert.include(arabic, '<html lang="ar-EG" dir="rtl"')
  })

  test('scriptSafeJson keeps a value from ending the script element', ({ assert }) => {
    const text = scriptSafeJson({ name: '</script><script>alert(1)</script>', line: '\u2028' })
    assert.notInclude(text, '</script')
    assert.notInclude(text, '\u2028')
    assert.deepEqual(JSON.parse(text), {
      name: '</script><script>alert(1)</script>',
      line: '\u2028',
    })
  })

  test('paths that only start like /admin are not the panel', async ({ client }) => {
    ;(await client.get('/administration')).assertStatus(404)
  })
})
