/**
 * What a new user trips over: where signing in lands, offering password
 * reset and invitations only with e-mail on, the keyboard in the create
 * dialogs, the share-ready dialog's Open and Done, and deleting an account
 * with a confirmation and a goodbye. On a desktop and on a 360 px phone
 * where the layout matters.
 */
import { test } from '@japa/runner'
import type { Browser, Locator, Page } from 'playwright'
import User from '#models/user'
import Share from '#models/share'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

const PASSWORD = 'correct horse battery'

const VIEWPORTS = [
  { label: 'desktop', viewport: { width: 1440, height: 900 } },
  { label: '360 px phone', viewport: { width: 360, height: 740 } },
]

/** A fresh browser context on the test server, at `viewport` (desktop by default). */
function freshContext(browser: Browser, viewport = VIEWPORTS[0].viewport) {
  return browser.newContext({ baseURL: baseUrl(), viewport })
}

/** Loads `path` and waits for React to take over the server-rendered page. */
async function open(page: Page, path: string) {
  await page.goto(path)
  await page.waitForSelector('html[data-hydrated]')
}

/** A context signed in as `cookie` (an `access_token=...` Cookie header). */
async function signedInContext(browser: Browser, cookie: string, viewport = VIEWPORTS[0].viewport) {
  const context = await freshContext(browser, viewport)
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
  ])
  return context
}

/** Fills the sign-in form of the current page and waits for the page it leads to. */
async function signIn(page: Page, username: string, landsOn: (url: URL) => boolean) {
  await page.getByLabel('Email or username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([
    page.waitForURL(landsOn),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ])
  await page.waitForSelector('html[data-hydrated]')
}

/** Resolves once the focus is on `locator`'s element; fails naming the focused element after 10 s. */
async function focused(locator: Locator) {
  const handle = await locator.elementHandle()
  try {
    await locator
      .page()
      .waitForFunction(
        (element) => (globalThis as any).document.activeElement === element,
        handle,
        { timeout: 10_000 }
      )
  } catch {
    const actual = await locator
      .page()
      .evaluate<string>("document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing'")
    throw new Error(`the focus is not on ${String(locator)} but on ${actual}`)
  }
}

/** The id of the focused element (empty when none has one). */
function focusedId(page: Page) {
  return page.evaluate<string>("document.activeElement?.id ?? ''")
}

/** Whether `locator`'s box lies within the viewport's width (nothing cut off on a phone). */
async function withinWidth(page: Page, locator: Locator) {
  const box = await locator.boundingBox()
  const width = page.viewportSize()!.width
  return box !== null && box.x >= 0 && box.x + box.width <= width
}

test.group('First use | where signing in lands', (group) => {
  group.each.setup(() => setConfig('general.appUrl', baseUrl()))
  group.each.teardown(() => cleanupShareTests())

  test('signing in lands on Upload, a page asking to come back gets the user back, a foreign redirect never leaves the site', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ password: PASSWORD })

    // From the sign-in page itself: Upload, not the marketing home page.
    const plain = await freshContext(browser)
    const page = await plain.newPage()
    const errors = collectErrors(page)
    await open(page, '/auth/signIn')
    await signIn(page, user.username, (url) => url.pathname === '/upload')
    await page.getByRole('heading', { level: 1, name: 'Upload' }).waitFor()
    assert.deepEqual(errors, [])
    await plain.close()

    // Foreign and protocol-relative redirects land on Upload of this server.
    for (const redirect of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      const context = await freshContext(browser)
      const tab = await context.newPage()
      await open(tab, `/auth/signIn?redirect=${encodeURIComponent(redirect)}`)
      await signIn(
        tab,
        user.username,
        (url) => url.origin === baseUrl() && url.pathname === '/upload'
      )
      assert.equal(new URL(tab.url()).origin, baseUrl(), redirect)
      await context.close()
    }

    // A visitor on a share page uses the header's Sign in: back on that share afterwards.
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'hello.txt': 'hello' },
      id: newShareId('landing'),
    })
    const visitor = await freshContext(browser)
    const tab = await visitor.newPage()
    await open(tab, `/share/${share.id}`)
    const signInLink = tab
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Sign in' })
    assert.equal(await signInLink.getAttribute('href'), `/auth/signIn?redirect=/share/${share.id}`)
    await Promise.all([
      tab.waitForURL((url) => url.pathname === '/auth/signIn'),
      signInLink.click(),
    ])
    await tab.waitForSelector('html[data-hydrated]')
    await signIn(tab, user.username, (url) => url.pathname === `/share/${share.id}`)
    await tab.getByText('hello.txt').first().waitFor()
    await visitor.close()
  })

  test('signing up lands on Upload', async ({ browser, assert }) => {
    await shareUser({ admin: true })
    const username = `first_${Date.now().toString(36)}`
    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await open(page, '/auth/signUp')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Email').fill(`${username}@example.com`)
    await page.getByLabel('Password').fill(PASSWORD)
    try {
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/upload'),
        page.getByRole('button', { name: "Let's get started" }).click(),
      ])
      await page.waitForSelector('html[data-hydrated]')
      await page.getByRole('heading', { level: 1, name: 'Upload' }).waitFor()
      assert.deepEqual(errors, [])
    } finally {
      await User.query().where('username', username).delete()
      await context.close()
    }
  })
})

test.group('First use | e-mail off: only what works is offered', (group) => {
  group.each.setup(() => setConfig('general.appUrl', baseUrl()))
  group.each.teardown(() => cleanupShareTests())

  for (const { label, viewport } of VIEWPORTS) {
    test(`no "Forgot password?" with e-mail off, and the reset page says no link can be sent (${label})`, async ({
      browser,
      assert,
    }) => {
      await setConfig('smtp.enabled', 'false')
      const context = await freshContext(browser, viewport)
      const page = await context.newPage()
      const errors = collectErrors(page)
      await open(page, '/auth/signIn')
      await page.getByLabel('Email or username').waitFor()
      assert.equal(await page.getByRole('link', { name: 'Forgot password?' }).count(), 0)

      // Opened directly: a clear notice, no e-mail field, no false "a message was sent".
      await open(page, '/auth/resetPassword')
      const notice = page.getByTestId('reset-unavailable')
      await notice.getByText('Password reset by e-mail is not available').waitFor()
      await notice
        .getByText('Ask an administrator to set a new password for you.', { exact: false })
        .waitFor()
      assert.equal(await page.getByLabel('Email').count(), 0)
      assert.isTrue(await withinWidth(page, notice))

      // With e-mail on, the link is offered and leads to the form.
      await setConfig('smtp.enabled', 'true')
      await open(page, '/auth/signIn')
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/auth/resetPassword'),
        page.getByRole('link', { name: 'Forgot password?' }).click(),
      ])
      await page.getByLabel('Email').waitFor()
      assert.equal(await page.getByTestId('reset-unavailable').count(), 0)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('the admin "Invite by e-mail" choice is disabled with the reason while e-mail is off', async ({
    browser,
    assert,
  }) => {
    await setConfig('smtp.enabled', 'false')
    const { cookie } = await shareUser({ admin: true, password: PASSWORD })
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await open(page, '/admin/users')
    await page.getByRole('button', { name: 'Create user' }).click()
    const create = dialogByTitle(page, 'Create a user')
    await create
      .getByTestId('invite-unavailable')
      .getByText('Inviting by e-mail needs e-mail to be turned on')
      .waitFor()
    const invite = create.getByRole('radio', { name: 'Invite by e-mail' })
    assert.isTrue(await invite.isDisabled())
    assert.isTrue(await create.getByRole('radio', { name: 'Set a password now' }).isChecked())
    await create.getByRole('button', { name: 'Cancel' }).click()
    await create.waitFor({ state: 'hidden' })

    // With e-mail on, the same dialog offers it.
    await setConfig('smtp.enabled', 'true')
    await open(page, '/admin/users')
    await page.getByRole('button', { name: 'Create user' }).click()
    const again = dialogByTitle(page, 'Create a user')
    await again.getByRole('radio', { name: 'Invite by e-mail' }).waitFor()
    assert.isFalse(await again.getByRole('radio', { name: 'Invite by e-mail' }).isDisabled())
    assert.equal(await again.getByTestId('invite-unavailable').count(), 0)
    assert.deepEqual(errors, [])
    await context.close()
  })
})

test.group('First use | create dialogs and the share-ready dialog by keyboard', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    await setConfig('share.chunkSize', '1000')
  })
  group.each.teardown(() => cleanupShareTests())

  for (const { label, viewport } of VIEWPORTS) {
    test(`create-share: focus on the first field, Tab to the next field, Enter shares; share-ready has Open and Done, Esc closes it (${label})`, async ({
      browser,
      assert,
    }) => {
      const { cookie } = await shareUser()
      const context = await signedInContext(browser, cookie, viewport)
      const page = await context.newPage()
      const errors = collectErrors(page)
      await open(page, '/upload')
      await page
        .getByTestId('file-input')
        .setInputFiles([{ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') }])
      await page.getByTestId('upload-file-list').getByText('note.txt').waitFor()
      await page.getByRole('button', { name: 'Share', exact: true }).click()

      const modal = dialogByTitle(page, 'Share')
      const link = modal.getByLabel('Link', { exact: true })
      await focused(link)
      // The first Tab goes on in the form, not to the dialog's Close button.
      await page.keyboard.press('Tab')
      assert.notEqual(
        await page.evaluate<string | null>(
          "document.activeElement?.getAttribute('aria-label') ?? null"
        ),
        'Close'
      )
      assert.isTrue(
        await modal
          .locator('form')
          .evaluate((form): boolean =>
            (form as any).contains((globalThis as any).document.activeElement)
          )
      )
      await page.keyboard.press('Shift+Tab')
      await focused(link)

      // Enter in the description (a textarea) is a new line, not a submission.
      const description = modal.getByLabel('Description')
      await description.click()
      await page.keyboard.type('first line')
      await page.keyboard.press('Enter')
      await page.keyboard.type('second line')
      assert.equal(await description.inputValue(), 'first line\nsecond line')
      assert.isTrue(await modal.isVisible())
      assert.equal(await dialogByTitle(page, 'Share ready').count(), 0)

      // A free-text field is checked as it is left (not at every keystroke): a name too short, then put right.
      const name = modal.getByLabel('Name', { exact: true })
      await name.fill('ab')
      await page.keyboard.press('Tab')
      await modal.getByText('Must be at least 3 characters').waitFor()
      await name.fill('abc')
      await page.keyboard.press('Tab')
      await modal.getByText('Must be at least 3 characters').waitFor({ state: 'detached' })

      const shareId = newShareId('keys')
      await link.fill(shareId)
      await modal.getByText('This link is already in use').waitFor({ state: 'detached' })
      await page.keyboard.press('Enter')

      const ready = dialogByTitle(page, 'Share ready')
      await ready.waitFor({ timeout: 30_000 })
      // One share, made by the Enter in the link field, with both lines of the description and the name.
      const created = await Share.findOrFail(shareId)
      assert.equal(created.description, 'first line\nsecond line')
      assert.equal(created.name, 'abc')
      const openButton = ready.getByRole('link', { name: 'Open' })
      assert.equal(await openButton.getAttribute('href'), `/share/${shareId}`)
      assert.equal(await openButton.getAttribute('target'), '_blank')
      const done = ready.getByRole('button', { name: 'Done' })
      assert.isTrue(await withinWidth(page, openButton))
      assert.isTrue(await withinWidth(page, done))
      await focused(done)

      // Open: the share page in a new tab; the dialog stays.
      const [popup] = await Promise.all([context.waitForEvent('page'), openButton.click()])
      await popup.waitForURL((url) => url.pathname === `/share/${shareId}`)
      await popup.waitForSelector('html[data-hydrated]')
      await popup.getByText('note.txt').first().waitFor()
      await popup.close()
      await page.bringToFront()
      await ready.waitFor()

      // Esc closes it, whatever has the focus.
      await page.evaluate('document.activeElement?.blur()')
      await page.keyboard.press('Escape')
      await ready.waitFor({ state: 'hidden' })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('share-ready: Esc right after the upload closes it, Done closes it too', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await open(page, '/upload')
    for (const round of [1, 2]) {
      await page
        .getByTestId('file-input')
        .setInputFiles([
          { name: `r${round}.txt`, mimeType: 'text/plain', buffer: Buffer.from('x') },
        ])
      await page.getByRole('button', { name: 'Share', exact: true }).click()
      const modal = dialogByTitle(page, 'Share')
      await modal.getByRole('button', { name: 'Share', exact: true }).click()
      const ready = dialogByTitle(page, 'Share ready')
      await ready.waitFor({ timeout: 30_000 })
      if (round === 1) await page.keyboard.press('Escape')
      else await ready.getByRole('button', { name: 'Done' }).click()
      await ready.waitFor({ state: 'hidden' })
      await page.getByTestId('upload-file-list').waitFor({ state: 'detached' })
    }
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const { label, viewport } of VIEWPORTS) {
    test(`create-reverse-share: focus on the first field, Enter in a field creates it (${label})`, async ({
      browser,
      assert,
    }) => {
      await setConfig('share.maxSize', '5000000')
      const { cookie } = await shareUser()
      const context = await signedInContext(browser, cookie, viewport)
      const page = await context.newPage()
      const errors = collectErrors(page)
      await open(page, '/account/reverseShares')
      await page.getByRole('button', { name: 'Create a reverse share' }).first().click()
      const modal = dialogByTitle(page, 'Create a reverse share')
      await modal.waitFor()
      // The first field of the form has the focus (not the dialog frame, not Close).
      const firstField = modal
        .locator('form')
        .locator('input:not([type="hidden"]):not([disabled])')
        .first()
      await focused(firstField)
      const firstId = await focusedId(page)
      assert.match(firstId, /^createReverseShare_/)
      await page.keyboard.press('Tab')
      assert.isTrue(
        await modal
          .locator('form')
          .evaluate((form): boolean =>
            (form as any).contains((globalThis as any).document.activeElement)
          )
      )

      await modal.getByLabel('Max uses').fill('3')
      await page.keyboard.press('Enter')
      const linkModal = dialogByTitle(page, 'Reverse share link')
      await linkModal.waitFor()
      await modal.waitFor({ state: 'hidden' })
      assert.deepEqual(errors, [])
      await context.close()
    })
  }
})

test.group('First use | deleting an account', (group) => {
  group.each.teardown(() => cleanupShareTests())

  for (const { label, viewport } of VIEWPORTS) {
    test(`a social-only account confirms by typing its username, then a goodbye (${label})`, async ({
      browser,
      assert,
    }) => {
      await shareUser({ admin: true })
      const { user, cookie } = await shareUser({ password: null })
      const context = await signedInContext(browser, cookie, viewport)
      const page = await context.newPage()
      const errors = collectErrors(page)
      await open(page, '/account')
      await page.getByRole('button', { name: 'Delete account' }).click()
      const dialog = dialogByTitle(page, 'Delete your account?')
      const confirm = dialog.getByLabel(`Type your username (${user.username}) to confirm`)
      await focused(confirm)
      assert.equal(await dialog.getByLabel('Current password').count(), 0)
      assert.isTrue(
        await withinWidth(page, dialog.getByRole('button', { name: 'Delete', exact: true }))
      )

      await page.keyboard.type('someone-else')
      await page.keyboard.press('Enter')
      await dialog.getByText('The username does not match').waitFor()
      assert.isNotNull(await User.find(user.id))

      await confirm.fill(user.username)
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/goodbye'),
        page.keyboard.press('Enter'),
      ])
      await page.waitForSelector('html[data-hydrated]')
      await page.getByRole('heading', { level: 1, name: 'Goodbye' }).waitFor()
      await page
        .getByText('Your account and all your shares have been deleted.', { exact: false })
        .waitFor()
      assert.isNull(await User.find(user.id))
      assert.isUndefined(
        (await context.cookies()).find(
          (entry) => entry.name === 'access_token' && entry.value !== ''
        )
      )
      assert.deepEqual(errors, [])
      await context.close()
    })
  }
})
