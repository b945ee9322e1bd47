import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { collectErrors, reloadedBy } from '#tests/helpers/browser'

/** Background colour of the header as the browser computes it. */
function headerBackground(page: Page) {
  return page
    .locator('header')
    .evaluate((element): string => (globalThis as any).getComputedStyle(element).backgroundColor)
}

const DARK_HEADER = 'rgb(20, 20, 20)'
const LIGHT_HEADER = 'rgb(255, 255, 255)'

test.group('Shell | theme and language', () => {
  test('a visitor switches to dark and to German, and both survive a reload', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/')
    const errors = collectErrors(page, { strict: true })
    await page.waitForSelector('html[data-hydrated]')
    await page.assertTextContains('h1', 'A self-hosted file sharing platform.')
    assert.equal(await headerBackground(page), LIGHT_HEADER)

    // The first Tab reaches the skip link, which draws a focus ring (not only its own colours).
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    assert.isTrue(
      await skip.evaluate((element) => element === (globalThis as any).document.activeElement)
    )
    const ring = await skip.evaluate((element) => {
      const style = (globalThis as any).getComputedStyle(element)
      return `${style.outlineStyle} ${style.outlineWidth}`
    })
    assert.equal(ring, 'solid 2px')

    await page.getByRole('button', { name: /^Colour scheme/ }).click()
    await page.getByRole('menuitem', { name: 'Dark' }).click()
    await page.waitForSelector('html[data-theme="dark"]')
    await page.assertCookie('color_scheme', 'dark')
    assert.equal(await headerBackground(page), DARK_HEADER)
    assert.equal(await page.evaluate(() => localStorage.getItem('colorScheme')), 'dark')

    await page.getByRole('button', { name: /^Language/ }).click()
    await reloadedBy(page, () => page.getByRole('menuitem', { name: 'Deutsch' }).click())
    await page.waitForSelector('html[data-hydrated]')
    await page.assertTextContains('h1', 'Eine selbst gehostete Plattform zum Teilen von Dateien.')
    await page.assertCookie('language', 'de-DE')
    assert.equal(await page.locator('html').getAttribute('lang'), 'de-DE')
    assert.equal(await headerBackground(page), DARK_HEADER)

    const response = await page.reload()
    const serverHtml = (await response?.text()) ?? ''
    assert.include(serverHtml, 'data-theme="dark"')
    assert.include(serverHtml, 'Eine selbst gehostete Plattform zum Teilen von Dateien.')
    await page.waitForSelector('html[data-hydrated]')
    await page.assertTextContains('h1', 'Eine selbst gehostete Plattform zum Teilen von Dateien.')
    await page.assertVisible(page.getByRole('link', { name: 'Anmelden' }))
    assert.equal(await headerBackground(page), DARK_HEADER)
    await page.assertVisible(page.getByRole('button', { name: 'Farbschema: Dunkel' }))

    assert.deepEqual(errors, [])
  })

  test('the system scheme follows a dark OS setting after hydration, without errors', async ({
    browser,
    assert,
  }) => {
    const context = await browser.newContext({
      colorScheme: 'dark',
      baseURL: `http://${process.env.HOST}:${process.env.PORT}`,
    })
    const page = await context.newPage()
    const errors = collectErrors(page, { strict: true })
    const response = await page.goto('/')
    assert.include((await response?.text()) ?? '', 'data-theme="light"')
    await page.waitForSelector('html[data-hydrated]')
    await page.waitForSelector('html[data-theme="dark"]')
    assert.equal(await headerBackground(page), DARK_HEADER)
    assert.deepEqual(errors, [])
    await context.close()
  })

  test('on a small screen the menu button opens a drawer with the links and preferences', async ({
    browser,
    assert,
  }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 800 },
      baseURL: `http://${process.env.HOST}:${process.env.PORT}`,
    })
    const page = await context.newPage()
    await page.goto('/')
    await page.waitForSelector('html[data-hydrated]')
    assert.isFalse(await page.getByRole('button', { name: /^Colour scheme/ }).isVisible())

    await page.getByRole('button', { name: 'Open menu' }).click()
    const drawer = page.getByRole('dialog')
    await drawer.getByRole('link', { name: 'Sign in' }).waitFor()
    assert.isTrue(await drawer.getByRole('link', { name: 'Sign up' }).isVisible())
    await drawer.getByText('Dark', { exact: true }).click()
    await page.waitForSelector('html[data-theme="dark"]')
    const cookies = await context.cookies()
    assert.equal(cookies.find((cookie) => cookie.name === 'color_scheme')?.value, 'dark')
    await context.close()
  })
})
