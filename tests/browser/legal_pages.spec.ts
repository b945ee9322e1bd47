/**
 * The legal pages in Chromium: the admin enables them in
 * the panel's Legal category with an imprint text, the footer link appears
 * and /imprint shows the rendered text; a privacy policy URL makes its link
 * lead there; all of it fits a 360 px phone.
 */
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const configService = await app.container.make(ConfigService)
const LEGAL_KEYS = [
  'legal.enabled',
  'legal.imprintText',
  'legal.imprintUrl',
  'legal.privacyPolicyText',
  'legal.privacyPolicyUrl',
]

/**
 * Opens `path` and waits until it is interactive. Generous timeouts: the
 * first visit of a page or of the admin panel waits for Vite to compile its
 * bundle, which takes long on a loaded machine (not the behaviour tested).
 */
async function openPage(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 120_000 })
  await page.waitForSelector('html[data-hydrated]', { timeout: 120_000 })
}

/** Whether the page is wider than its viewport (a horizontal scroll bar on a phone). */
function overflows(page: Page) {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')
}

test.group('Legal pages | browser', (group) => {
  group.each.setup(async () => {
    for (const key of LEGAL_KEYS) await setConfig(key, null)
  })
  group.each.teardown(() => cleanupShareTests())

  test('the admin enables the imprint in the Legal settings; the footer links to the rendered page', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const context = await browser.newContext({ baseURL: baseUrl() })
    await context.addCookies([
      { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
    ])
    const page = await context.newPage()
    const errors = collectErrors(page)

    // No link while disabled.
    await openPage(page, '/')
    assert.equal(await page.getByTestId('legal-link-imprint').count(), 0)

    await openPage(page, '/admin/config/legal')
    await page.getByTestId('config-category-title').filter({ hasText: 'Legal' }).waitFor()
    await page.getByRole('switch', { name: 'Enabled' }).click()
    await page.getByLabel('Imprint text').fill('## Operator\n\nAda **Lovelace**\n\n- one\n- two')
    await page.getByRole('button', { name: 'Save' }).click()
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Configuration saved' })
      .first()
      .waitFor()
    assert.isTrue(await configService.get('legal.enabled'))

    await openPage(page, '/')
    const footer = page.getByRole('navigation', { name: 'Legal information' })
    await footer.getByRole('link', { name: 'Imprint' }).click()
    await page.waitForURL((url) => url.pathname === '/imprint')
    await page.getByRole('heading', { level: 1, name: 'Imprint' }).waitFor()
    const text = page.getByTestId('legal-text')
    await text.getByRole('heading', { level: 2, name: 'Operator' }).waitFor()
    assert.equal(await text.locator('strong').textContent(), 'Lovelace')
    assert.equal(await text.locator('li').count(), 2)
    // Only the imprint is set: no privacy link.
    assert.equal(await footer.getByRole('link', { name: 'Privacy policy' }).count(), 0)

    assert.deepEqual(errors, [])
    await context.close()
  })

  test("a privacy policy URL is the link's target; the footer and the page fit 360 px", async ({
    browser,
    assert,
  }) => {
    await configService.update([
      { key: 'legal.enabled', value: true },
      {
        key: 'legal.imprintText',
        value: `# Imprint\n\n${'A rather long line of the imprint that has to wrap on a phone. '.repeat(6)}https://example.com/a/very/long/address/that/does/not/break/by/itself/at/all`,
      },
      { key: 'legal.privacyPolicyUrl', value: 'https://example.com/privacy' },
    ])
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 360, height: 740 },
    })
    const page = await context.newPage()
    const errors = collectErrors(page)
    await openPage(page, '/')
    const footer = page.getByRole('navigation', { name: 'Legal information' })
    const privacy = footer.getByRole('link', { name: 'Privacy policy' })
    assert.equal(await privacy.getAttribute('href'), 'https://example.com/privacy')
    await privacy.scrollIntoViewIfNeeded()
    assert.isTrue(await privacy.isVisible())
    assert.isTrue(await footer.getByRole('link', { name: 'Imprint' }).isVisible())
    assert.isFalse(await overflows(page))

    await openPage(page, '/imprint')
    await page
      .getByTestId('legal-text')
      .getByText('A rather long line', { exact: false })
      .first()
      .waitFor()
    assert.isFalse(await overflows(page))
    assert.deepEqual(errors, [])
    await context.close()
  })
})
