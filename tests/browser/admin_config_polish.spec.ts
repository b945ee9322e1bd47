/**
 * In Chromium against the real server: the Social
 * Login configuration grouped per provider (enabled state, callback URL with
 * a copy button) on a desktop and at 360 px; the panel showing a saved app
 * name at once; the upload dropzone's keyboard focus ring drawn with the
 * theme's colours in light and dark.
 */
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { baseUrl, openSignedIn } from '#tests/helpers/browser'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

// Globals of the page the evaluated functions run in (the tests' tsconfig has no DOM library).
declare const document: any
declare function getComputedStyle(element: unknown): {
  outlineStyle: string
  outlineColor: string
  outlineWidth: string
}

/** Whether the page scrolls sideways (something is cut off or overflows). */
function overflowsSideways(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth
  )
}

test.group('Admin configuration and upload polish | browser', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
  })
  group.each.teardown(async () => {
    await cleanupShareTests()
    for (const key of ['general.appName', 'general.appUrl', 'oauth.github-enabled'])
      await setConfig(key, null)
  })

  for (const width of [1440, 360]) {
    test(`Social Login is grouped per provider with its callback URL and state (${width} px)`, async ({
      browser,
      assert,
    }) => {
      await setConfig('oauth.github-enabled', 'true')
      const { cookie } = await shareUser({ admin: true })
      const { context, page, errors } = await openSignedIn(browser, cookie, '/admin/config/oauth', {
        width,
      })

      // The general keys come first, in their own group.
      const general = page.getByTestId('oauth-general')
      await general.waitFor()
      await page.assertTextContains(general, 'Allow registration')
      await page.assertTextContains(general, 'Ignore TOTP')
      await page.assertTextContains(general, 'Disable password sign-in')
      assert.equal(await general.getByTestId('oauth-callback-url').count(), 0)
      const firstGroup = await page
        .locator('[data-testid^="oauth-"]')
        .first()
        .getAttribute('data-testid')
      assert.equal(firstGroup, 'oauth-general')

      // One group per provider: its state, its callback URL, its own fields.
      const github = page.getByTestId('oauth-provider-github')
      await github.waitFor()
      await page.assertTextContains(github, 'GitHub')
      await page.assertTextContains(github, 'Enabled')
      await page.assertTextContains(github, 'GitHub: client ID')
      assert.equal(
        await github.getByTestId('oauth-callback-url').innerText(),
        `${baseUrl()}/api/oauth/callback/github`
      )
      for (const provider of ['google', 'microsoft', 'discord', 'oidc']) {
        const card = page.getByTestId(`oauth-provider-${provider}`)
        await page.assertTextContains(card, 'Disabled')
        assert.equal(
          await card.getByTestId('oauth-callback-url').innerText(),
          `${baseUrl()}/api/oauth/callback/${provider}`
        )
        assert.equal(await card.getByText('GitHub: client ID').count(), 0)
      }
      assert.equal(await general.getByText('GitHub: client ID').count(), 0)

      // The copy button puts the callback URL on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() })
      await github.getByRole('button', { name: 'Copy' }).click()
      await page.waitForFunction(
        async (expected) => (await (navigator as any).clipboard.readText()) === expected,
        `${baseUrl()}/api/oauth/callback/github`
      )

      // Saving a provider's switch updates its state.
      await github.getByRole('switch').first().click()
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Configuration saved').waitFor()
      await github.getByText('Disabled').waitFor()

      assert.isFalse(await overflowsSideways(page))
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('the panel shows a saved app name at once, without a reload', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const { context, page, errors } = await openSignedIn(browser, cookie, '/admin/config/general')
    await page.getByText('Tern administration').first().waitFor()
    let reloaded = false
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true
    })

    await page.getByLabel('App name').fill('Harbour')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Configuration saved').waitFor()
    await page.getByText('Harbour administration').first().waitFor()
    await page.waitForFunction(() => document.title.includes('Harbour'))
    assert.equal(await page.getByText('Tern administration').count(), 0)
    assert.isFalse(reloaded)
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const dark of [false, true]) {
    test(`the dropzone's keyboard focus ring follows the ${dark ? 'dark' : 'light'} theme`, async ({
      browser,
      assert,
    }) => {
      const { cookie } = await shareUser()
      const { context, page, errors } = await openSignedIn(browser, cookie, '/upload', { dark })
      await page.waitForSelector(`html[data-theme="${dark ? 'dark' : 'light'}"]`)
      const area = page.getByRole('button', {
        name: 'Drop files here or press Enter to choose files',
      })

      // Before any focus: no outline.
      assert.equal(await area.evaluate((element) => getComputedStyle(element).outlineStyle), 'none')

      // Tab until the area has the keyboard focus.
      for (let step = 0; step < 40; step++) {
        await page.keyboard.press('Tab')
        if (await area.evaluate((element) => element === document.activeElement)) break
      }
      await page.waitForSelector('[data-focus-visible]')
      // The ring fades in (a 0.2 s transition of the outline): read it once the transition has finished.
      await area.evaluate((element) =>
        Promise.all(
          (element as any)
            .getAnimations()
            .map((animation: { finished: Promise<unknown> }) => animation.finished)
        )
      )
      const style = await area.evaluate((element) => {
        const computed = getComputedStyle(element)
        return {
          outlineStyle: computed.outlineStyle,
          outlineColor: computed.outlineColor,
          outlineWidth: computed.outlineWidth,
        }
      })
      assert.equal(style.outlineStyle, 'solid')
      assert.notEqual(style.outlineColor, 'rgb(0, 0, 0)')
      assert.notEqual(style.outlineColor, 'rgb(16, 16, 16)')
      // The theme's primary border colour: a blue tint, not a grey.
      const [red, green, blue] = style.outlineColor.match(/\d+/g)!.map(Number)
      assert.isAbove(blue, red)
      assert.isAbove(blue, green - 1)
      assert.notEqual(style.outlineWidth, '0px')

      // A mouse click does not draw the ring.
      await page.mouse.click(5, 5)
      await page.waitForSelector('[data-focus-visible]', { state: 'detached' })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }
})
