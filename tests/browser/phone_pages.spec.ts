/**
 * The pages without a phone layout of their own, at 360 px,
 * in Chromium against the real server: home, sign in (with its refusal),
 * sign up, forgot and reset password, the TOTP step, goodbye, imprint and
 * privacy policy, the 404 and social-login error pages, and My account
 * (profile, password, TOTP set-up with its QR code, an API token,
 * notifications, preferences) with its revoke confirmation and
 * delete-account dialog: nothing is cut off (`cutOff`, the open dialog's own
 * box when one is open).
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cutOff } from '#tests/helpers/layout'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const WIDTH = 360
const PASSWORD = 'correct horse battery'
const LONG_URL = 'https://example.com/a/very/long/address/that/does/not/break/by/itself/at/all'

/** Opens `path` and waits until it is interactive (the first visit of a page compiles it: generous bounds). */
async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 120_000 })
  await page.waitForSelector('html[data-hydrated]', { timeout: 120_000 })
}

/** A 360 px page, signed in with `cookie` when given. */
async function phone(browser: Browser, cookie?: string) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: WIDTH, height: 800 },
    isMobile: true,
    hasTouch: true,
  })
  if (cookie)
    await context.addCookies([
      { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
    ])
  const page = await context.newPage()
  return { context, page, errors: collectErrors(page) }
}

test.group('Pages | 360 px', (group) => {
  group.each.setup(async () => {
    await setConfig('share.allowRegistration', 'true')
    await setConfig('legal.enabled', 'true')
    await setConfig(
      'legal.imprintText',
      `# Imprint\n\n${'A rather long line of the imprint that has to wrap on a phone. '.repeat(3)}${LONG_URL}`
    )
    await setConfig(
      'legal.privacyPolicyText',
      `# Privacy policy\n\nWe keep what you upload until it expires. ${LONG_URL}`
    )
  })
  group.each.teardown(() => cleanupShareTests())

  test('signed out: home, sign in, sign up, passwords, TOTP, goodbye, legal and error pages', async ({
    browser,
    assert,
  }) => {
    const { context, page, errors } = await phone(browser)
    const pages: [string, string][] = [
      ['/', 'home'],
      ['/auth/signUp', 'sign up'],
      ['/auth/resetPassword', 'forgot password'],
      ['/auth/resetPassword/some-token-from-a-mail', 'reset password'],
      ['/auth/totp/some-login-token', 'TOTP'],
      ['/goodbye', 'goodbye'],
      ['/imprint', 'imprint'],
      ['/privacy', 'privacy policy'],
      ['/error?error=no_user&params=provider_github&redirect=/auth/signIn', 'social login error'],
    ]
    for (const [path, name] of pages) {
      await open(page, path)
      assert.deepEqual(await cutOff(page), [], name)
    }
    await page.goto('/no-such-page', { waitUntil: 'domcontentloaded' })
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    assert.deepEqual(await cutOff(page), [], '404')

    // The sign-in form, and its refusal.
    await open(page, '/auth/signIn')
    assert.deepEqual(await cutOff(page), [], 'sign in')
    await page.getByLabel('Email or username').fill('nobody-with-a-rather-long-name@example.com')
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('alert').first().waitFor()
    assert.deepEqual(await cutOff(page), [], 'sign in refused')

    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(600_000)

  test('My account: every card, the TOTP set-up with its QR code, an API token and its revoke confirmation, the delete dialog', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({
      username: 'someone-with-a-long-username',
      email: 'someone.with.a.very.long.address@subdomain.example.com',
      password: PASSWORD,
    })
    const { context, page, errors } = await phone(browser, cookie)
    await open(page, '/account')

    // An API token in the list.
    const tokens = page.getByRole('region', { name: 'API tokens' })
    await tokens.getByLabel('Name').fill('backup script on the NAS')
    await tokens.getByRole('button', { name: 'Create token' }).click()
    const row = tokens.getByRole('row', { name: /backup script on the NAS/ })
    await row.waitFor()
    await page.getByTestId('new-api-token').waitFor()
    assert.deepEqual(await cutOff(page), [], 'account with a token')
    const revoke = row.getByRole('button', { name: 'Revoke backup script on the NAS' })
    const revokeBox = (await revoke.boundingBox())!
    assert.isAtMost(revokeBox.x + revokeBox.width, WIDTH)
    await revoke.click()
    const confirm = page.getByRole('tooltip')
    await confirm.getByRole('button', { name: 'Revoke' }).waitFor()
    assert.deepEqual(
      await cutOff(page, '.ant-popover:not(.ant-popover-hidden)'),
      [],
      'revoke confirmation'
    )
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'hidden' })

    // The TOTP set-up: QR code and the secret, readable (not squeezed beside the code).
    const security = page.getByRole('region', { name: 'Security' })
    await security.getByLabel('Current password').fill(PASSWORD)
    await security.getByRole('button', { name: 'Enable TOTP' }).click()
    await security
      .getByRole('img', { name: 'QR code to add your account to an authenticator app' })
      .waitFor()
    assert.deepEqual(await cutOff(page), [], 'TOTP set-up')
    const secret = (await page.getByTestId('totp-secret').boundingBox())!
    assert.isAtLeast(secret.width, 200)

    // Deleting the account: the dialog.
    await page.getByRole('button', { name: 'Delete account' }).click()
    const dialog = dialogByTitle(page, 'Delete your account?')
    await dialog.getByLabel('Current password').waitFor()
    assert.deepEqual(
      await cutOff(page, '.ant-modal-wrap:not([style*="display: none"]) .ant-modal'),
      [],
      'delete dialog'
    )
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })

    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(600_000)
})
