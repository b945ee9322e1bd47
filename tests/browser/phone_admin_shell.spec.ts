/**
 * The administration panel's frame on phones, in Chromium
 * against the real server: at 360 and 390 px the sider is gone and a menu
 * button opens the navigation in a drawer (closed by Esc and by navigating,
 * focus back on the button); the setup notices put their button under the
 * text; on the landing and on every configuration category (plugin ones
 * too) nothing is cut off, and the categories are a "Category" select. At
 * 1440 px the sider and the category menu are there and nothing is cut off.
 */
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { openSignedIn } from '#tests/helpers/browser'
import { api, cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'
import { cutOff } from '#tests/helpers/layout'

// Globals of the page the evaluated functions run in (the tests' tsconfig has no DOM library).
declare const document: any

/** Waits for both setup notices (they load after the page). */
async function noticesShown(page: Page) {
  await page.getByTestId('app-url-notice').getByRole('button', { name: 'Confirm' }).waitFor()
  await page.getByTestId('setup-notice').getByRole('button', { name: 'Setup finished' }).waitFor()
}

/** Waits until `category`'s page shows its fields. */
async function categoryShown(page: Page, category: string) {
  await page.waitForURL((url) => url.pathname === `/admin/config/${category}`)
  await page.getByRole('button', { name: 'Save' }).waitFor()
  await page.locator('form[id="config"] .ant-form-item').first().waitFor()
  await noticesShown(page)
}

/** The configuration categories the server lists (core, then plugins). */
async function categoryIds(cookie: string): Promise<string[]> {
  const response = await api('GET', '/api/configs/admin', { cookie })
  return (response.json as { category: string }[]).map((entry) => entry.category)
}

test.group('Admin panel | phones | shell, notices and configuration', (group) => {
  group.each.setup(async () => {
    // Both notices are shown: the setup is not finished and no public address is confirmed.
    await setConfig('internal.setupFinished', 'false')
    await setConfig('general.appUrl', null)
  })
  group.each.teardown(() => cleanupShareTests())

  for (const width of [360, 390]) {
    test(`the landing and every configuration category fit ${width} px`, async ({
      browser,
      assert,
    }) => {
      const { cookie } = await shareUser({ admin: true })
      const categories = await categoryIds(cookie)
      for (const expected of ['general', 'share', 'email', 'smtp', 'oauth', 'legal'])
        assert.include(categories, expected)
      const { context, page, errors } = await openSignedIn(browser, cookie, '/admin', {
        width: width,
        phoneBelow: 768,
        height: 800,
      })

      // Landing: no sider, a menu button; the notices' text has room, their buttons under it.
      await page.getByTestId('landing-version').waitFor()
      await noticesShown(page)
      for (const testId of ['app-url-notice', 'setup-notice']) {
        const notice = page.getByTestId(testId)
        const text = await notice.locator('.ant-alert-message').boundingBox()
        const button = await notice.getByRole('button').boundingBox()
        assert.isAtLeast(text!.width, 200, testId)
        assert.isAtLeast(
          button!.y,
          text!.y + text!.height,
          `${testId}: the button is under the text`
        )
      }
      assert.isFalse(await page.locator('.ant-layout-sider').isVisible())
      assert.isTrue(await page.getByRole('button', { name: 'Open the menu' }).isVisible())
      assert.deepEqual(await cutOff(page), [])

      // Every category, through the "Category" select for the first, by address for the others.
      const select = page.getByLabel('Category', { exact: true })
      await page.goto('/admin/config/general')
      await categoryShown(page, 'general')
      assert.isFalse(
        await page.getByRole('navigation', { name: 'Configuration categories' }).isVisible()
      )
      await page.locator('.ant-select').filter({ has: select }).click()
      await page.locator('.ant-select-dropdown').getByTitle('Share', { exact: true }).click()
      await categoryShown(page, 'share')
      await page.getByTestId('config-category-title').filter({ hasText: 'Share' }).waitFor()
      for (const category of categories) {
        if (category !== 'share') {
          await page.goto(`/admin/config/${category}`)
          await categoryShown(page, category)
        }
        if (category === 'oauth') {
          // Social Login: no callback URL on the placeholder address; each card says it waits for the confirmed one.
          const github = page.getByTestId('oauth-provider-github')
          await github.getByTestId('oauth-callback-unconfirmed').waitFor()
          assert.equal(await github.getByTestId('oauth-callback-url').count(), 0)
          assert.notInclude(await github.innerText(), 'localhost:3000')
        }
        assert.deepEqual(await cutOff(page), [], category)
      }
      assert.deepEqual(errors, [])
      await context.close()
    }).timeout(300_000)
  }

  test('the menu button opens the navigation in a drawer; navigating and Esc close it (360 px)', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const { context, page, errors } = await openSignedIn(browser, cookie, '/admin', {
      width: 360,
      phoneBelow: 768,
      height: 800,
    })
    await page.getByTestId('landing-version').waitFor()
    const menuButton = page.getByRole('button', { name: 'Open the menu' })
    const drawer = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('navigation', { name: 'Administration' }) })
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false')

    await menuButton.click()
    await drawer.waitFor()
    // The drawer slides in (antd's motion classes on its panel until it is in place).
    await page.waitForFunction(() => {
      const panel = document.querySelector('.ant-drawer-content-wrapper')
      return panel && !/motion/.test(panel.className) && panel.getBoundingClientRect().left >= 0
    })
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'true')
    await page.getByText('Tern administration').waitFor()
    assert.deepEqual(await cutOff(page, '.ant-drawer-content'), [])
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/admin/users'),
      drawer.getByRole('link', { name: 'Users' }).click(),
    ])
    await drawer.waitFor({ state: 'hidden' })
    await page.getByRole('heading', { name: 'Users' }).first().waitFor()

    // From the keyboard: Enter opens it with the focus on the current page's entry, Tab goes on in the menu,
    // Esc closes it and the focus comes back to the button.
    await menuButton.focus()
    await page.keyboard.press('Enter')
    await drawer.waitFor()
    await page.waitForFunction(
      () =>
        document.activeElement?.textContent === 'Users' &&
        document.activeElement.closest('[data-testid=admin-drawer]')
    )
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Configuration')
    await page.keyboard.press('Escape')
    await drawer.waitFor({ state: 'hidden' })
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Open the menu'
    )
    assert.equal(new URL(page.url()).pathname, '/admin/users')
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)

  test('at 1440 px the sider and the category menu are there, the notices keep their button beside the text, nothing is cut off', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const { context, page, errors } = await openSignedIn(browser, cookie, '/admin', {
      width: 1440,
      phoneBelow: 768,
      height: 800,
    })
    await page.getByTestId('landing-version').waitFor()
    await noticesShown(page)
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Users' })
      .waitFor()
    assert.isTrue(await page.locator('.ant-layout-sider').isVisible())
    assert.isFalse(await page.getByRole('button', { name: 'Open the menu' }).isVisible())
    const notice = page.getByTestId('setup-notice')
    const text = await notice.locator('.ant-alert-message').boundingBox()
    const button = await notice.getByRole('button').boundingBox()
    assert.isBelow(button!.y, text!.y + text!.height, 'the button is beside the text')
    assert.deepEqual(await cutOff(page), [])

    await page.goto('/admin/config/general')
    await categoryShown(page, 'general')
    await page
      .getByRole('navigation', { name: 'Configuration categories' })
      .getByRole('menuitem', { name: 'Share', exact: true })
      .waitFor()
    assert.isFalse(await page.getByLabel('Category', { exact: true }).isVisible())
    assert.deepEqual(await cutOff(page), [])
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)
})
