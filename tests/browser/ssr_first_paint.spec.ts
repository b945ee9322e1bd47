/**
 * The styles antd extracts on the server are a linked stylesheet
 * (/ssr-styles/<hash>.css) instead of inline <style>. The first paint must
 * stay styled before any script runs: checked with JavaScript turned off,
 * in the dark scheme and in a right-to-left language, on a visitor's share
 * page; and with scripts on, hydration over the linked styles keeps them and
 * raises no error (CSP included).
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'

const DARK_HEADER = 'rgb(20, 20, 20)'
const LIGHT_HEADER = 'rgb(255, 255, 255)'

/** A page in a fresh context with the given cookies, scripts on or off. */
async function openPage(
  browser: Browser,
  cookies: Record<string, string>,
  javaScriptEnabled: boolean
) {
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled })
  const url = new URL(baseUrl())
  await context.addCookies(
    Object.entries(cookies).map(([name, value]) => ({
      name,
      value,
      domain: url.hostname,
      path: '/',
    }))
  )
  return context.newPage()
}

async function sharePath() {
  const { cookie } = await shareUser()
  const share = await createCompletedShare({ cookie, files: { 'notes.txt': 'hello' } })
  return `/share/${share.id}`
}

test.group('Server-rendered styles | first paint', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('a dark share page is styled dark without JavaScript', async ({ browser, assert }) => {
    const path = await sharePath()
    const page = await openPage(browser, { color_scheme: 'dark' }, false)
    await page.goto(path)
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark')
    assert.equal(
      await page
        .locator('header')
        .evaluate(
          (element): string => (globalThis as any).getComputedStyle(element).backgroundColor
        ),
      DARK_HEADER
    )
    // antd's own rules apply (the layout is a flex column from the stylesheet, not the browser default).
    assert.equal(
      await page
        .locator('.ant-layout')
        .first()
        .evaluate((element): string => (globalThis as any).getComputedStyle(element).display),
      'flex'
    )
    await page.context().close()
  })

  test('an Arabic (rtl) share page is styled right-to-left without JavaScript', async ({
    browser,
    assert,
  }) => {
    const path = await sharePath()
    const page = await openPage(browser, { language: 'ar-EG' }, false)
    await page.goto(path)
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl')
    assert.equal(
      await page
        .locator('header')
        .evaluate(
          (element): string => (globalThis as any).getComputedStyle(element).backgroundColor
        ),
      LIGHT_HEADER
    )
    assert.equal(
      await page
        .locator('.ant-app-rtl')
        .first()
        .evaluate((element): string => (globalThis as any).getComputedStyle(element).direction),
      'rtl'
    )
    await page.context().close()
  })

  test('with scripts on, hydration keeps the linked styles and raises no error', async ({
    browser,
    assert,
  }) => {
    const path = await sharePath()
    const page = await openPage(browser, { color_scheme: 'dark' }, true)
    const errors = collectErrors(page)
    const failed: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400)
        failed.push(`${response.status()} ${new URL(response.url()).pathname}`)
    })
    await page.goto(path)
    await page.waitForSelector('html[data-hydrated]')
    assert.equal(await page.locator('link[rel="stylesheet"][href^="/ssr-styles/"]').count(), 1)
    assert.equal(
      await page
        .locator('header')
        .evaluate(
          (element): string => (globalThis as any).getComputedStyle(element).backgroundColor
        ),
      DARK_HEADER
    )
    assert.deepEqual(errors, [])
    assert.deepEqual(
      failed.filter((line) => line.includes('/ssr-styles/')),
      []
    )
    await page.context().close()
  })
})
