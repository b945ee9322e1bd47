import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { html } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

test.group('Pages | upload page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a signed-in user gets the server-rendered upload page with the dropzone and the size limit', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'share.maxSize', value: 1_500_000 }])
    const user = await createUser()
    const response = await client
      .get('/upload')
      .header('Cookie', await accessCookieFor(user))
      .redirects(0)
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Upload - Tern</title>')
    assert.match(page, /<h1[^>]*>Upload<\/h1>/)
    assert.include(page, 'Your files can be up to 1.5 MB in total.')
    assert.match(page, /<input[^>]*type="file"[^>]*multiple=""[^>]*data-testid="file-input"/)
    assert.include(page, 'aria-label="Drop files here or press Enter to choose files"')
    assert.match(page, /<button[^>]*>.*?<span>Choose a folder<\/span><\/button>/s)
    assert.include(page, '"component":"upload\\/index"')
  })

  test('the upload page is rendered in the language of the cookie', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .get('/upload')
      .header('Cookie', `${await accessCookieFor(user)}; language=de-DE`)
      .redirects(0)
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Hochladen - Tern</title>')
    assert.include(page, 'Dateien auswählen')
  })

  test('visitors are sent to sign in first while unauthenticated shares are off', async ({
    client,
  }) => {
    await configService.update([{ key: 'share.allowUnauthenticatedShares', value: false }])
    const response = await client.get('/upload').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/auth/signIn?redirect=/upload')
  })

  test('visitors get the upload page while unauthenticated shares are on', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'share.allowUnauthenticatedShares', value: true }])
    const response = await client.get('/upload').redirects(0)
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Upload - Tern</title>')
    assert.include(page, '"user":null')
  })
})
