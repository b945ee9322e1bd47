/**
 * In Chromium: every page works under its
 * Content-Security-Policy. Each page is opened, hydrated and used with a
 * click that needs JavaScript and antd's run-time styles; the browser must
 * report no `securitypolicyviolation` and no console error (answers a page
 * expects to be refused, such as a 403 for a non-admin, are not CSP errors).
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'
import { makePng } from '#tests/helpers/png'

/** Records CSP violations in `window.__cspViolations` from the first byte of every page. */
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + (event.sample || ''));
  });
`

/** A context that records violations, signed in with `cookie` (`name=value`) when given. */
async function cspContext(browser: Browser, cookie?: string) {
  const context = await browser.newContext({ baseURL: baseUrl() })
  await context.addInitScript({ content: RECORD_VIOLATIONS })
  if (cookie) {
    const index = cookie.indexOf('=')
    await context.addCookies([
      { name: cookie.slice(0, index), value: cookie.slice(index + 1), url: baseUrl() },
    ])
  }
  return context
}

/** The violations the page reported, as one string per violation (empty when none). */
async function violations(page: Page): Promise<string> {
  return ((await page.evaluate(() => (globalThis as any).__cspViolations)) as string[]).join('\n')
}

/** Background of the header, as computed: antd's CSS-in-JS sets it, so it proves those styles applied. */
function headerBackground(page: Page) {
  return page
    .locator('header')
    .evaluate((element): string => (globalThis as any).getComputedStyle(element).backgroundColor)
}

/** Opens `path` (checking it is served with a nonce-based CSP), waits for hydration and switches to the dark scheme through the header menu. */
async function openAndUse(page: Page, path: string) {
  const response = await page.goto(path)
  const policy = (await response?.allHeaders())?.['content-security-policy'] ?? ''
  if (!/script-src 'self' 'nonce-[^']+'/.test(policy))
    throw new Error(`${path}: no nonce-based CSP (${policy})`)
  await page.waitForSelector('html[data-hydrated]')
  await page.getByRole('button', { name: /^Colour scheme/ }).click()
  await page.getByRole('menuitem', { name: 'Dark' }).click()
  await page.waitForSelector('html[data-theme="dark"]')
  await page.waitForFunction(
    () =>
      (globalThis as any).getComputedStyle((globalThis as any).document.querySelector('header'))
        .backgroundColor === 'rgb(20, 20, 20)'
  )
}

test.group('Security headers | pages work under the CSP', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('signed out: home, sign in and sign up', async ({ browser, assert }) => {
    const context = await cspContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    for (const path of ['/', '/auth/signIn', '/auth/signUp']) {
      await openAndUse(page, path)
      assert.equal(await violations(page), '', path)
    }
    assert.equal(await headerBackground(page), 'rgb(20, 20, 20)')
    assert.equal(errors.join('\n'), '')
    await context.close()
  })

  test('signed in: upload, my shares, account, reverse shares and a share with previews', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: {
        'photo.png': makePng(8, 8, () => [200, 30, 30, 255]),
        'notes.txt': 'hello under a policy',
      },
    })
    const context = await cspContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    for (const path of [
      '/upload',
      '/account/shares',
      '/account',
      '/account/reverseShares',
      `/share/${share.id}`,
    ]) {
      await openAndUse(page, path)
      assert.equal(await violations(page), '', path)
    }

    await page.getByRole('button', { name: 'Preview photo.png' }).click()
    await dialogByTitle(page, 'photo.png').getByTestId('image-preview').waitFor()
    await page.waitForFunction(
      () =>
        ((globalThis as any).document.querySelector('[data-testid="image-preview"]')
          ?.naturalWidth ?? 0) > 0
    )
    const imageDialog = dialogByTitle(page, 'photo.png')
    await imageDialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await imageDialog.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Preview notes.txt' }).click()
    await page.getByTestId('text-preview').getByText('hello under a policy').waitFor()
    assert.equal(await violations(page), '')
    assert.equal(errors.join('\n'), '')
    await context.close()
  })

  test('the administration panel', async ({ browser, assert }) => {
    const { cookie } = await shareUser({ admin: true })
    const context = await cspContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    const response = await page.goto('/admin/users')
    assert.match(
      (await response?.allHeaders())?.['content-security-policy'] ?? '',
      /script-src 'self' 'nonce-/
    )
    await page.waitForSelector('html[data-hydrated]')
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Shares' })
      .click()
    await page.waitForURL((url) => url.pathname === '/admin/shares')
    await page.goto('/admin/config/general')
    await page.waitForSelector('html[data-hydrated]')
    await page
      .getByRole('navigation', { name: 'Configuration categories' })
      .getByRole('menuitem', { name: 'SMTP', exact: true })
      .click()
    await page.waitForURL((url) => url.pathname === '/admin/config/smtp')
    assert.equal(await violations(page), '')
    assert.equal(errors.join('\n'), '')
    await context.close()
  })
})
