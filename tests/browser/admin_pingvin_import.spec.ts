/**
 * The panel's "Import from Pingvin Share" page in Chromium, against the real
 * server: an admin opens it from the panel's navigation and reads the
 * command, its options, and what is and is not carried over; on a 360 px
 * phone nothing is cut off or scrolls sideways.
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const PASSWORD = 'correct horse battery'
const COMMAND = 'node ace pingvin:import <pingvin data folder>'

/** Signs `username` in through the form and lands on `path` of the panel. */
async function signedInPanel(
  browser: Browser,
  username: string,
  path: string,
  viewport?: { width: number; height: number }
) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    ...(viewport ? { viewport } : {}),
  })
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto(`/auth/signIn?redirect=${path}`, {
    waitUntil: 'domcontentloaded',
    timeout: 90_000,
  })
  await page.waitForSelector('html[data-hydrated]', { timeout: 90_000 })
  await page.getByLabel('Email or username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([
    page.waitForURL((url) => url.pathname === path, { timeout: 90_000 }),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ])
  return { context, page, errors }
}

/** Width of the whole document (more than the viewport = sideways scrolling). */
function scrollWidth(page: Page) {
  return page.evaluate<number>('document.scrollingElement.scrollWidth')
}

test.group('Admin panel | import from Pingvin Share', (group) => {
  // A confirmed public address: admins signing in go straight on (no address step, inertia/components/auth/address_step.tsx).
  group.each.setup(() => setConfig('general.appUrl', baseUrl()))
  group.each.teardown(() => cleanupShareTests())

  test('an admin opens the page from the navigation and reads the command, its options and what is carried over', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ admin: true, password: PASSWORD })
    const { context, page, errors } = await signedInPanel(browser, user.username, '/admin')

    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Import from Pingvin' })
      .click()
    await page.getByRole('heading', { name: 'Import from Pingvin Share', level: 2 }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/admin/import/pingvin')

    assert.equal(
      (await page.getByTestId('pingvin-import-command').locator('code').textContent())?.trim(),
      COMMAND
    )
    assert.equal(
      (await page.getByTestId('pingvin-import-dry-run').locator('code').textContent())?.trim(),
      `${COMMAND} --dry-run`
    )
    assert.equal(
      (await page.getByTestId('pingvin-import-paths').locator('code').textContent())?.trim(),
      'node ace pingvin:import --db <pingvin-share.db> --uploads <uploads folder>'
    )
    await page.getByRole('term').filter({ hasText: '--merge' }).waitFor()
    await page.assertTextContains(
      page.getByTestId('pingvin-import-source'),
      'The Pingvin instance is never changed'
    )
    await page.assertTextContains(
      page.getByTestId('pingvin-import-carried'),
      'Their passwords keep working'
    )
    await page.assertTextContains(
      page.getByTestId('pingvin-import-not-carried'),
      'every user signs in again'
    )
    // The menu entry shows where the admin is.
    await page
      .locator('.ant-menu-item-selected')
      .filter({ hasText: 'Import from Pingvin' })
      .waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)

  test('at 360 px wide every command is shown whole and nothing scrolls sideways', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ admin: true, password: PASSWORD })
    const phone = { width: 360, height: 780 }
    const { context, page, errors } = await signedInPanel(
      browser,
      user.username,
      '/admin/import/pingvin',
      phone
    )
    await page.getByRole('heading', { name: 'Import from Pingvin Share', level: 2 }).waitFor()

    // On a phone the panel has no sider (its navigation is behind the header's menu button).
    await page.getByRole('button', { name: 'Open the menu' }).waitFor()
    assert.isAtMost(await scrollWidth(page), phone.width)
    for (const testId of [
      'pingvin-import-command',
      'pingvin-import-dry-run',
      'pingvin-import-paths',
    ]) {
      const code = page.getByTestId(testId).locator('code')
      const box = await code.boundingBox()
      assert.exists(box, testId)
      assert.isAtLeast(box!.x, 0, testId)
      assert.isAtMost(box!.x + box!.width, phone.width, testId)
      // Wrapped, not clipped: the text fits the box it is drawn in.
      const clipped = await code.evaluate((element) => {
        const sizes = element as unknown as { scrollWidth: number; clientWidth: number }
        return sizes.scrollWidth > sizes.clientWidth + 1
      })
      assert.isFalse(clipped, testId)
      // The copy button beside it is inside the screen too.
      const copy = await page.getByTestId(testId).locator('.ant-typography-copy').boundingBox()
      assert.isAtMost(copy!.x + copy!.width, phone.width, `${testId} copy`)
    }
    assert.equal(
      (await page.getByTestId('pingvin-import-command').locator('code').textContent())?.trim(),
      COMMAND
    )
    for (const testId of [
      'pingvin-import-carried',
      'pingvin-import-not-carried',
      'pingvin-import-source',
    ]) {
      const box = await page.getByTestId(testId).boundingBox()
      assert.isAtMost(box!.x + box!.width, phone.width, testId)
    }

    // In German (longer words), the same.
    await context.addCookies([{ name: 'language', value: 'de-DE', url: baseUrl() }])
    await page.reload()
    await page.getByRole('heading', { name: 'Import aus Pingvin Share', level: 2 }).waitFor()
    await page.getByRole('button', { name: 'Menü öffnen' }).waitFor()
    assert.equal(
      (await page.getByTestId('pingvin-import-command').locator('code').textContent())?.trim(),
      'node ace pingvin:import <Pingvin-Datenordner>'
    )
    assert.isAtMost(await scrollWidth(page), phone.width)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)
})
