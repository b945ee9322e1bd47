import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { html, linkedStyles } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

/** The CSS antd extracted while rendering the page on the server (the stylesheet the page links to). */
function antdCss(text: string) {
  return linkedStyles(text)
}

test.group('Pages | home', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the home page is server-rendered with the app name, the hero and the three points', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<html lang="en-US"')
    assert.include(page, 'data-server-rendered="true"')
    assert.include(page, '<span class="tern-brand-name">Tern</span>')
    assert.match(page, /<h1[^>]*>A self-hosted file sharing platform.<\/h1>/)
    for (const point of ['Self-hosted', 'Privacy', 'No annoying file size limit']) {
      assert.include(page, point)
    }
    assert.include(page, 'Get started')
    assert.include(page, 'Source code')
    assert.include(page, '<title data-inertia="">Home - Tern</title>')
  })

  test('the page shows the configured app name', async ({ client, assert }) => {
    await configService.update([{ key: 'general.appName', value: 'Dropbox of Ours' }])
    const page = html((await client.get('/')).text())
    assert.include(page, '<span class="tern-brand-name">Dropbox of Ours</span>')
    assert.include(page, '<title data-inertia="">Home - Dropbox of Ours</title>')
  })

  test('visitors see home, sign in and sign up; get started leads to sign up', async ({
    client,
    assert,
  }) => {
    const page = html((await client.get('/')).text())
    assert.match(page, /<a href="\/"[^>]*aria-current="page"[^>]*><span>Home<\/span><\/a>/)
    assert.match(page, /<a href="\/auth\/signIn"[^>]*><span>Sign in<\/span><\/a>/)
    assert.match(page, /<a href="\/auth\/signUp"[^>]*><span>Sign up<\/span><\/a>/)
    assert.notInclude(page, '>Upload<')
    assert.notInclude(page, 'My shares')
    assert.match(page, /<a href="\/auth\/signUp"[^>]*><span>Get started<\/span><\/a>/)
  })

  test('the header follows the registration and unauthenticated-share settings', async ({
    client,
    assert,
  }) => {
    await configService.update([
      { key: 'share.allowRegistration', value: false },
      { key: 'share.allowUnauthenticatedShares', value: true },
    ])
    const page = html((await client.get('/')).text())
    assert.notInclude(page, 'Sign up')
    assert.match(page, /<a href="\/upload"[^>]*><span>Upload<\/span><\/a>/)
    assert.match(page, /<a href="\/auth\/signIn"[^>]*><span>Get started<\/span><\/a>/)
  })

  test('signed-in users see upload, my shares, reverse shares and their account menu', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ username: 'ada' })
    const page = html((await client.get('/').header('Cookie', await accessCookieFor(user))).text())
    assert.match(page, /<a href="\/upload"[^>]*><span>Upload<\/span><\/a>/)
    assert.match(page, /<a href="\/account\/shares"[^>]*><span>My shares<\/span><\/a>/)
    assert.match(page, /<a href="\/account\/reverseShares"[^>]*><span>Reverse shares<\/span><\/a>/)
    assert.include(page, 'aria-label="Account menu of ada"')
    assert.notInclude(page, 'Sign in')
    assert.match(page, /<a href="\/upload"[^>]*><span>Get started<\/span><\/a>/)
  })

  test('with the home page turned off, / sends visitors to sign in', async ({ client }) => {
    await configService.update([{ key: 'general.showHomePage', value: false }])
    const response = await client.get('/').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/auth/signIn')
  })

  test('with the home page turned off, / sends signed-in users to upload', async ({ client }) => {
    await configService.update([{ key: 'general.showHomePage', value: false }])
    const user = await createUser()
    const response = await client
      .get('/')
      .header('Cookie', await accessCookieFor(user))
      .redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/upload')
  })
})

test.group('Pages | language', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the language cookie renders the page in German', async ({ client, assert }) => {
    const page = html((await client.get('/').header('Cookie', 'language=de-DE')).text())
    assert.include(page, '<html lang="de-DE"')
    assert.match(page, /<h1[^>]*>Eine selbst gehostete Plattform zum Teilen von Dateien.<\/h1>/)
    assert.include(page, '<span>Anmelden</span>')
    assert.include(page, '"language":"de-DE"')
  })

  test('without the cookie the browser language is used, matched on the part before the hyphen', async ({
    client,
    assert,
  }) => {
    const page = html((await client.get('/').header('Accept-Language', 'fr')).text())
    assert.include(page, '<html lang="fr-FR"')
    assert.match(page, /<h1[^>]*>Une plateforme de partage de fichiers auto-hébergée.<\/h1>/)
    assert.include(page, '<span>Se connecter</span>')
  })

  test('the first supported browser language wins', async ({ client, assert }) => {
    const page = (
      await client.get('/').header('Accept-Language', 'xx-YY, de-AT;q=0.8, fr;q=0.5')
    ).text()
    assert.include(page, '<html lang="de-DE"')
  })

  test('the cookie wins over the browser language', async ({ client, assert }) => {
    const page = (
      await client.get('/').header('Cookie', 'language=fr-FR').header('Accept-Language', 'de')
    ).text()
    assert.include(page, '<html lang="fr-FR"')
  })

  test('an unknown language falls back to English', async ({ client, assert }) => {
    const page = html((await client.get('/').header('Accept-Language', 'xx')).text())
    assert.include(page, '<html lang="en-US"')
    assert.include(page, 'A self-hosted file sharing platform.')
  })

  test('Hungarian, once English only, is rendered in Hungarian under its own code', async ({
    client,
    assert,
  }) => {
    const page = html((await client.get('/').header('Cookie', 'language=hu-HU')).text())
    assert.include(page, '<html lang="hu-HU"')
    assert.include(page, 'Saját szerveren futó fájlmegosztó platform.')
    assert.notInclude(page, 'A self-hosted file sharing platform.')
  })

  test('Arabic pages are written right to left', async ({ client, assert }) => {
    const page = (await client.get('/').header('Cookie', 'language=ar-EG')).text()
    assert.include(page, '<html lang="ar-EG" dir="rtl"')
    assert.include(page, 'ant-app-rtl')
  })
})

test.group('Pages | colour scheme', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the color_scheme cookie makes the server render the dark theme', async ({
    client,
    assert,
  }) => {
    const text = (await client.get('/').header('Cookie', 'color_scheme=dark')).text()
    assert.include(text, 'data-color-scheme="dark" data-theme="dark" style="color-scheme: dark"')
    assert.include(text, '"colorScheme":"dark"')
    const css = await antdCss(text)
    assert.match(css, /\.ant-layout-header[^}]*background:#141414/)
    assert.match(css, /\.ant-layout\{[^}]*background:#000000/)
  })

  test('without the cookie the server renders the light theme', async ({ client, assert }) => {
    const text = (await client.get('/')).text()
    assert.include(text, 'data-color-scheme="system" data-theme="light"')
    const css = await antdCss(text)
    assert.match(css, /\.ant-layout-header[^}]*background:#ffffff/)
    assert.notInclude(css, '#141414')
  })

  test('the system preference is rendered light by the server', async ({ client, assert }) => {
    const text = (await client.get('/').header('Cookie', 'color_scheme=system')).text()
    assert.include(text, 'data-color-scheme="system" data-theme="light"')
    assert.notInclude(await antdCss(text), '#141414')
  })
})
