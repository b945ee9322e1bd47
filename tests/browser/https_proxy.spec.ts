/**
 * Tern behind a TLS-terminating proxy (tests/helpers/https_proxy.ts), in
 * Chromium: the pages carry Strict-Transport-Security, and every cookie the
 * browser ends up with is Secure, those the server sets (session, known
 * device) and those the page's script writes (colour scheme, language).
 */
import { test } from '@japa/runner'
import { collectErrors, reloadedBy } from '#tests/helpers/browser'
import { baseUrl } from '#tests/helpers/shares'
import { cleanupShareTests, shareUser } from '#tests/helpers/shares'
import { startHttpsProxy, type HttpsProxy } from '#tests/helpers/https_proxy'

test.group('HTTPS | behind a TLS proxy | browser', (group) => {
  let proxy: HttpsProxy
  group.setup(async () => {
    proxy = await startHttpsProxy(baseUrl())
    return () => proxy.close()
  })
  group.each.teardown(() => cleanupShareTests())

  test('a person signs in, picks a scheme and a language: HSTS, and every cookie Secure', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ password: 'password123' })
    const context = await browser.newContext({ baseURL: proxy.url, ignoreHTTPSErrors: true })
    const page = await context.newPage()
    const errors = collectErrors(page)

    const signInPage = await page.goto('/auth/signIn')
    assert.equal(signInPage?.url().slice(0, 8), 'https://')
    assert.equal(
      (await signInPage?.allHeaders())?.['strict-transport-security'],
      'max-age=15552000'
    )
    await page.waitForSelector('html[data-hydrated]')
    await page.getByLabel('Email or username').fill(user.username)
    await page.getByLabel('Password').fill('password123')
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/auth/signIn'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')

    await page.getByRole('button', { name: /^Colour scheme/ }).click()
    await page.getByRole('menuitem', { name: 'Dark' }).click()
    await page.waitForSelector('html[data-theme="dark"]')
    await page.getByRole('button', { name: /^Language/ }).click()
    await reloadedBy(page, () => page.getByRole('menuitem', { name: 'Deutsch' }).click())
    await page.waitForSelector('html[lang="de-DE"][data-hydrated]')

    const cookies = await context.cookies()
    const names = cookies.map((cookie) => cookie.name)
    assert.includeMembers(names, [
      'access_token',
      'refresh_token',
      'known_device',
      'color_scheme',
      'language',
    ])
    for (const cookie of cookies) assert.isTrue(cookie.secure, cookie.name)
    // Vite's dev client (test runs only; a build has none) opens its socket as wss:// on its own plain port.
    const viteSocket = new RegExp(
      `^WebSocket (connection to 'wss://127\\.0\\.0\\.1:${process.env.VITE_HMR_PORT}/|closed without opened)`
    )
    assert.deepEqual(
      errors.filter((error) => !viteSocket.test(error)),
      []
    )
    await context.close()
  })
})
