/**
 * The legal pages: /imprint and /privacy render the
 * Markdown text of the Legal settings on the server, redirect to the URL
 * when one is set, and are the 404 page while disabled or empty; the footer
 * links follow the same settings.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { html } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

const IMPRINT =
  '## Operator\n\nAda **Lovelace**, 1 Example Street\n\n<script>alert(1)</script>\n\n[Contact](https://example.com/contact)'

test.group('Pages | legal', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('disabled or empty, both pages are the 404 page and the footer has no legal links', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'legal.imprintText', value: IMPRINT }])
    for (const path of ['/imprint', '/privacy']) {
      const response = await client.get(path)
      response.assertStatus(404)
      assert.include(html(response.text()), "Oops this page doesn't exist.")
    }
    assert.notInclude(html((await client.get('/')).text()), 'href="/imprint"')

    await configService.update([{ key: 'legal.enabled', value: true }])
    // Enabled, the privacy policy has neither text nor URL: still 404, and no link to it.
    ;(await client.get('/privacy')).assertStatus(404)
    const home = html((await client.get('/')).text())
    assert.include(home, 'href="/imprint"')
    assert.notInclude(home, 'href="/privacy"')
  })

  test('the imprint text is rendered on the server as Markdown, raw HTML as text', async ({
    client,
    assert,
  }) => {
    await configService.update([
      { key: 'legal.enabled', value: true },
      { key: 'legal.imprintText', value: IMPRINT },
    ])
    const response = await client.get('/imprint')
    response.assertStatus(200)
    const page = html(response.text())
    assert.match(page, /<h1[^>]*>Imprint<\/h1>/)
    assert.match(page, /<h2>Operator<\/h2>/)
    assert.include(page, 'Ada <strong>Lovelace</strong>, 1 Example Street')
    assert.include(
      page,
      '<a href="https://example.com/contact" target="_blank" rel="noopener noreferrer nofollow">Contact</a>'
    )
    assert.notInclude(page, '<script>alert(1)</script>')
    assert.include(page, '<title data-inertia="">Imprint - Tern</title>')
    // The footer on this page (and every other) links to it.
    assert.match(page, /<footer[\s\S]*href="\/imprint"[\s\S]*<\/footer>/)
  })

  test('a URL wins over the text: the page redirects there and the footer links there', async ({
    client,
    assert,
  }) => {
    await configService.update([
      { key: 'legal.enabled', value: true },
      { key: 'legal.privacyPolicyText', value: 'ignored' },
      { key: 'legal.privacyPolicyUrl', value: 'https://example.com/privacy' },
    ])
    const response = await client.get('/privacy').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', 'https://example.com/privacy')
    // An Inertia visit is told to leave the app (409 + X-Inertia-Location).
    const version = /"version":"([^"]*)"/.exec((await client.get('/')).text())?.[1] ?? ''
    const visit = await client
      .get('/privacy')
      .header('X-Inertia', 'true')
      .header('X-Inertia-Version', version)
      .redirects(0)
    visit.assertStatus(409)
    visit.assertHeader('x-inertia-location', 'https://example.com/privacy')
    const home = html((await client.get('/')).text())
    assert.include(home, 'href="https://example.com/privacy"')
    assert.include(home, '>Privacy policy</a>')
  })

  test("the footer and the page speak the visitor's language", async ({ client, assert }) => {
    await configService.update([
      { key: 'legal.enabled', value: true },
      { key: 'legal.imprintText', value: 'Text' },
    ])
    const page = html((await client.get('/imprint').header('Accept-Language', 'de-DE')).text())
    assert.match(page, /<h1[^>]*>Impressum<\/h1>/)
    assert.include(page, 'aria-label="Rechtliche Hinweise"')
  })
})
