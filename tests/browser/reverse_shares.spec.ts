import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { api, cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

const PASSWORD = 'correct horse battery'

/** A fresh browser context on the test server (nothing shared with any other). */
function freshContext(browser: Browser) {
  return browser.newContext({ baseURL: baseUrl() })
}

/** Signs in through the form of the page `path` redirected to, and comes back to `path`. */
async function signInThrough(page: Page, path: string, username: string) {
  await page.goto(path)
  await page.waitForURL((url) => url.pathname === '/auth/signIn')
  await page.waitForSelector('html[data-hydrated]')
  await page.getByLabel('Email or username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([
    page.waitForURL((url) => url.pathname === path),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ])
  await page.waitForSelector('html[data-hydrated]')
}

/** Creates a reverse share in the page's create modal (`configure` fills the form) and reads its link from the link modal. */
async function createThroughModal(
  page: Page,
  configure: (modal: ReturnType<typeof dialogByTitle>) => Promise<void>
) {
  await page.getByRole('button', { name: 'Create a reverse share' }).first().click()
  const modal = dialogByTitle(page, 'Create a reverse share')
  await modal.waitFor()
  await configure(modal)
  await modal.getByRole('button', { name: 'Create', exact: true }).click()
  await modal.waitFor({ state: 'hidden' })
  const linkModal = dialogByTitle(page, 'Reverse share link')
  await linkModal.waitFor()
  const link = await linkModal.getByLabel('Reverse share link').inputValue()
  return { link, linkModal }
}

/**
 * The share-ready dialog once Share was clicked (within 30 s: the upload
 * takes 1 to 2 s on a loaded machine). When the page shows a refusal
 * instead (an error above or in the create dialog, at one of its fields, or
 * an error notification), fails at once with its text; when neither comes,
 * with what the page says it is doing, so that a failure explains itself.
 */
async function shareReady(page: Page) {
  const ready = dialogByTitle(page, 'Share ready')
  const refusal = page
    .locator('.ant-alert-error, .ant-form-item-explain-error, .ant-notification-notice-error')
    .visible()
  try {
    await ready.or(refusal).first().waitFor({ timeout: 30_000 })
  } catch (error) {
    const status = await page.getByTestId('upload-status').allInnerTexts()
    throw new Error(
      `No share-ready dialog after 30 s; the upload status: ${JSON.stringify(status)}`,
      { cause: error }
    )
  }
  if (!(await ready.isVisible())) {
    throw new Error(`The page refused the share: ${(await refusal.allInnerTexts()).join(' | ')}`)
  }
  return ready
}

/** Cookies of a context named `reverse_share_token` (whatever their path). */
async function reverseShareCookies(page: Page) {
  return (await page.context().cookies()).filter((cookie) => cookie.name === 'reverse_share_token')
}

test.group('Reverse shares | browser journey', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    await setConfig('share.maxSize', '5000000')
    await setConfig('share.chunkSize', '1000')
  })
  group.each.teardown(() => cleanupShareTests())

  test('the owner creates a reverse share, a visitor uploads through its link, the owner sees the share and deletes it all', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ password: PASSWORD })

    // The owner signs in through the form, coming back to the reverse shares: the empty state.
    const owner = await freshContext(browser)
    const page = await owner.newPage()
    const errors = collectErrors(page)
    await signInThrough(page, '/account/reverseShares', user.username)
    await page.assertTextContains('h1', 'Reverse shares')
    await page.getByTestId('reverse-shares-empty').waitFor()
    await page.assertTextContains(
      page.getByTestId('reverse-shares-empty'),
      "You don't have any reverse shares."
    )
    // The header offers the page to signed-in users.
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Reverse shares' })
      .waitFor()

    // The create modal refuses a size over share.maxSize, then creates with 2 uses and no expiry.
    const { link, linkModal } = await createThroughModal(page, async (modal) => {
      assert.equal(await modal.getByLabel('Max share size', { exact: true }).inputValue(), '5')
      await modal
        .getByText('The largest share someone can upload through this link, at most 5 MB.')
        .waitFor()
      // No SMTP: no e-mail notification switch.
      assert.equal(
        await modal.getByRole('switch', { name: 'Send an e-mail notification' }).count(),
        0
      )
      await modal.getByLabel('Max share size', { exact: true }).fill('6')
      await modal.getByRole('button', { name: 'Create', exact: true }).click()
      await modal.getByText("Max share size can't be greater than 5 MB.").waitFor()
      await modal.getByLabel('Max share size', { exact: true }).fill('1')
      await modal
        .getByText("Max share size can't be greater than 5 MB.")
        .waitFor({ state: 'detached' })
      await modal.getByLabel('Max uses').fill('2')
      await modal.getByText('Never expires').click()
      await modal.getByText('This reverse share and its shares will never expire.').waitFor()
      assert.isFalse(await modal.getByRole('switch', { name: 'Simplified mode' }).isChecked())
      assert.isTrue(await modal.getByRole('switch', { name: 'Public access' }).isChecked())
    })
    const token = new URL(link).pathname.split('/').pop()!
    assert.equal(link, `${baseUrl()}/upload/${token}`)
    assert.equal(
      await linkModal.getByRole('img', { name: `QR code of the link ${link}` }).count(),
      1
    )
    await page.assertTextContains(
      linkModal.getByTestId('reverse-share-expiration'),
      'This link will never expire.'
    )
    await linkModal.getByRole('button', { name: 'Close' }).click()
    await linkModal.waitFor({ state: 'hidden' })

    // The list: no share yet, 2 uses left, 1 MB, never expires.
    const table = page.getByTestId('reverse-shares-table')
    const row = table.locator('tbody tr[data-row-key]')
    await row.waitFor()
    assert.lengthOf(await row.allInnerTexts(), 1)
    assert.equal(await row.getByTestId('reverse-share-count').textContent(), '0')
    assert.equal(await row.getByTestId('reverse-share-remaining').textContent(), '2')
    await page.assertTextContains(row, '1 MB')
    await page.assertTextContains(row, 'Never')
    const stored = await ReverseShare.findByOrFail('token', token)
    assert.equal(stored.maxShareSize, 1_000_000)
    assert.equal(stored.remainingUses, 2)
    assert.isNull(stored.shareExpiration)

    // The link modal of the row shows the same link.
    await row.getByRole('button', { name: 'Show link' }).click()
    assert.equal(
      await dialogByTitle(page, 'Reverse share link').getByLabel('Reverse share link').inputValue(),
      link
    )
    await dialogByTitle(page, 'Reverse share link').getByRole('button', { name: 'Close' }).click()

    // A visitor opens the link in a fresh browser: the upload page with the reverse share's limit.
    const visitor = await freshContext(browser)
    const upload = await visitor.newPage()
    const uploadErrors = collectErrors(upload)
    await upload.goto(link)
    await upload.waitForSelector('html[data-hydrated]')
    await upload.getByRole('heading', { level: 1, name: 'Upload' }).waitFor()
    await upload.getByText('Your files can be up to 1 MB in total.').waitFor()
    await upload
      .getByText('The files you upload here are shared with the person who sent you this link.')
      .waitFor()
    await upload.getByTestId('file-input').setInputFiles([
      {
        name: 'too-big.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(1_000_001),
      },
    ])
    await upload
      .locator('#main-content')
      .getByRole('alert')
      .filter({ hasText: 'Your files exceed the maximum share size of 1 MB.' })
      .waitFor()
    const content = 'Report for the owner.\n'.repeat(100)
    await upload
      .getByTestId('file-input')
      .setInputFiles([{ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from(content) }])
    await upload.getByTestId('upload-file-list').getByText('report.txt').waitFor()

    // The create-share modal: the reverse share's expiry instead of the expiration field.
    await upload.getByRole('button', { name: 'Share', exact: true }).click()
    const modal = dialogByTitle(upload, 'Share')
    await modal.getByLabel('Link', { exact: true }).waitFor()
    assert.equal(
      await modal.getByTestId('fixed-expiration').textContent(),
      'This share will never expire.'
    )
    assert.equal(await modal.getByLabel('Expires after').count(), 0)
    const shareId = await modal.getByLabel('Link', { exact: true }).inputValue()
    await modal.getByLabel('Name').fill('For the owner')
    await modal.getByRole('button', { name: 'Share', exact: true }).click()

    const ready = await shareReady(upload)
    assert.equal(await ready.getByLabel('Share link').inputValue(), `${baseUrl()}/s/${shareId}`)
    assert.equal(
      await ready.getByTestId('share-expiration').textContent(),
      'This share will never expire.'
    )
    await upload.getByText('All files are uploaded.').waitFor()
    // The cookie lived for the creation only.
    assert.deepEqual(await reverseShareCookies(upload), [])
    const share = await Share.findOrFail(shareId)
    assert.equal(share.reverseShareId, stored.id)
    assert.isNull(share.creatorId)
    assert.isNull(share.expiration)
    assert.deepEqual(uploadErrors, [])
    await visitor.close()

    // Back to the owner: one share, one use left; the row expands to the share, which opens.
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await row.waitFor()
    assert.equal(await row.getByTestId('reverse-share-count').textContent(), '1')
    assert.equal(await row.getByTestId('reverse-share-remaining').textContent(), '1')
    await row.getByRole('button', { name: 'Expand row' }).click()
    const shares = page.getByTestId('reverse-share-shares')
    await shares.waitFor()
    await page.assertTextContains(shares, '1 file, 2.2 kB, uploaded on ')
    await Promise.all([
      page.waitForURL((url) => url.pathname === `/share/${shareId}`),
      shares.getByRole('link', { name: `For the owner (${shareId})` }).click(),
    ])
    await page.getByRole('heading', { level: 1, name: 'For the owner' }).waitFor()
    await page.getByText('report.txt').first().waitFor()
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/account/reverseShares')

    // Delete it, with the confirmation: its share goes with it.
    await row.getByRole('button', { name: 'Delete' }).click()
    const confirm = dialogByTitle(page, 'Delete reverse share')
    await page.assertTextContains(
      confirm,
      'Do you really want to delete this reverse share and the share uploaded through it?'
    )
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('The reverse share has been deleted.').waitFor()
    await page.getByTestId('reverse-shares-empty').waitFor()
    assert.isNull(await ReverseShare.find(stored.id))
    assert.isNull(await Share.find(shareId))
    assert.equal(
      (await api('GET', `/upload/${token}`, { headers: { accept: 'text/html' } })).status,
      404
    )
    assert.deepEqual(errors, [])
    await owner.close()
  }).timeout(180_000)

  test('a simplified link with one use: files only, the share-ready result, then the link is used up', async ({
    browser,
    assert,
  }) => {
    await setConfig('share.maxExpiration', '3 days')
    // SMTP on: the e-mail notification can be asked for (off by default).
    await setConfig('smtp.enabled', 'true')
    const { user } = await shareUser({ password: PASSWORD })
    const owner = await freshContext(browser)
    const page = await owner.newPage()
    const errors = collectErrors(page)
    await signInThrough(page, '/account/reverseShares', user.username)
    const { link, linkModal } = await createThroughModal(page, async (modal) => {
      // share.maxExpiration caps the expiry, and "never" is not offered.
      assert.equal(await modal.getByText('Never expires').count(), 0)
      await modal.getByLabel('Expires after').fill('4')
      await modal.getByText(/^Expiration exceeds maximum expiration date of .+\.$/).waitFor()
      await modal.getByLabel('Expires after').fill('2')
      await modal
        .getByText(/^Expiration exceeds maximum expiration date of/)
        .waitFor({ state: 'detached' })
      await modal.getByText(/^This reverse share and its shares will expire on /).waitFor()
      assert.isFalse(
        await modal.getByRole('switch', { name: 'Send an e-mail notification' }).isChecked()
      )
      await modal.getByLabel('Max uses').fill('1')
      await modal.getByRole('switch', { name: 'Simplified mode' }).click()
      await modal.getByRole('switch', { name: 'Public access' }).click()
    })
    const expiry = await linkModal.getByTestId('reverse-share-expiration').textContent()
    assert.match(expiry ?? '', /^This link will expire on /)
    await linkModal.getByRole('button', { name: 'Close' }).click()
    const token = new URL(link).pathname.split('/').pop()!
    const stored = await ReverseShare.findByOrFail('token', token)
    assert.isTrue(stored.simplified)
    assert.isFalse(stored.publicAccess)
    assert.equal(stored.remainingUses, 1)
    assert.isFalse(stored.sendEmailNotification)
    assert.closeTo(stored.shareExpiration!.diffNow('hours').hours, 48, 0.1)

    // The visitor: no modal at all, the share is made with the files alone.
    const visitor = await freshContext(browser)
    const upload = await visitor.newPage()
    const uploadErrors = collectErrors(upload)
    await upload.goto(link)
    await upload.waitForSelector('html[data-hydrated]')
    await upload
      .getByText(/^The files you upload here are shared with .* Your share will expire on /)
      .waitFor()
    await upload.getByTestId('file-input').setInputFiles([
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first file') },
      { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('second file') },
    ])
    await upload.getByText('2 files, 21 bytes in total').waitFor()
    await upload.getByRole('button', { name: 'Share', exact: true }).click()
    const ready = await shareReady(upload)
    assert.equal(await dialogByTitle(upload, 'Share').count(), 0)
    const shareLink = await ready.getByLabel('Share link').inputValue()
    const shareId = new URL(shareLink).pathname.split('/').pop()!
    assert.match(shareId, /^[A-Za-z0-9]{8}$/)
    assert.match(
      (await ready.getByTestId('share-expiration').textContent()) ?? '',
      /^This share will expire on /
    )
    const share = await Share.findOrFail(shareId)
    assert.equal(share.reverseShareId, stored.id)
    assert.isNull(share.name)
    assert.equal(share.expiration?.toMillis(), stored.shareExpiration?.toMillis())
    assert.deepEqual(await reverseShareCookies(upload), [])

    // The only use is gone: the same link now explains itself instead of offering a form.
    await upload.reload()
    await upload.waitForSelector('html[data-hydrated]')
    await upload.getByRole('heading', { level: 1, name: 'This upload link is not valid' }).waitFor()
    assert.equal(await upload.getByTestId('file-input').count(), 0)
    assert.deepEqual(uploadErrors, [])
    await visitor.close()

    // The owner: one share, no use left; a private share opens for the owner.
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    const row = page.getByTestId('reverse-shares-table').locator('tbody tr[data-row-key]')
    await row.waitFor()
    assert.equal(await row.getByTestId('reverse-share-count').textContent(), '1')
    assert.equal(await row.getByTestId('reverse-share-remaining').textContent(), '0')
    await row.getByRole('button', { name: 'Expand row' }).click()
    await Promise.all([
      page.waitForURL((url) => url.pathname === `/share/${shareId}`),
      page.getByTestId('reverse-share-shares').getByRole('link', { name: shareId }).click(),
    ])
    await page.getByText('b.txt').first().waitFor()
    assert.deepEqual(errors, [])
    await owner.close()
  }).timeout(180_000)

  test('a link ending up used up while its page is open: the upload is refused with a clear message', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, { maxUseCount: 1, simplified: true })
    const context = await freshContext(browser)
    const upload = await context.newPage()
    const errors = collectErrors(upload)
    await upload.goto(`/upload/${token}`)
    await upload.waitForSelector('html[data-hydrated]')
    await upload
      .getByTestId('file-input')
      .setInputFiles([{ name: 'late.txt', mimeType: 'text/plain', buffer: Buffer.from('late') }])
    // Someone else takes the last use meanwhile.
    await completedReverseShareUpload(token, { 'first.txt': 'first' })
    await upload.getByRole('button', { name: 'Share', exact: true }).click()
    await upload
      .locator('#main-content')
      .getByRole('alert')
      .filter({
        hasText: "This upload link can't be used anymore: it has expired or has no uses left.",
      })
      .waitFor()
    assert.equal(await dialogByTitle(upload, 'Share ready').count(), 0)
    // Only the other uploader's share is kept.
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    assert.lengthOf(await Share.query().where('reverse_share_id', reverseShare.id), 1)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('a link used up between its lookup and the share creation: the 403 of the creation gets the same clear message', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, { maxUseCount: 1, simplified: true })
    const context = await freshContext(browser)
    const upload = await context.newPage()
    const errors = collectErrors(upload)
    await upload.goto(`/upload/${token}`)
    await upload.waitForSelector('html[data-hydrated]')
    await upload
      .getByTestId('file-input')
      .setInputFiles([{ name: 'late.txt', mimeType: 'text/plain', buffer: Buffer.from('late') }])
    // The lookup still succeeds; the last use is gone by the time the creation reaches the server.
    const creations: number[] = []
    await upload.route('**/api/shares', async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      await db.from('reverse_shares').where('token', token).update({ remaining_uses: 0 })
      const response = await route.fetch()
      creations.push(response.status())
      await route.fulfill({ response })
    })
    await upload.getByRole('button', { name: 'Share', exact: true }).click()
    await upload
      .locator('#main-content')
      .getByRole('alert')
      .filter({
        hasText: "This upload link can't be used anymore: it has expired or has no uses left.",
      })
      .waitFor()
    assert.deepEqual(creations, [403])
    assert.equal(await dialogByTitle(upload, 'Share ready').count(), 0)
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    assert.lengthOf(await Share.query().where('reverse_share_id', reverseShare.id), 0)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('a link whose share was never created leaves no trace on a later ordinary upload of the same browser', async ({
    browser,
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie)
    const context = await freshContext(browser)
    const upload = await context.newPage()
    const errors = collectErrors(upload)
    await upload.goto(`/upload/${token}`)
    await upload.waitForSelector('html[data-hydrated]')
    // What the page does right before creating a share: the lookup sets the cookie. The share is
    // then never created (the visitor goes away), so the cookie is left behind.
    const lookup = await upload.evaluate(
      async (value) => (await fetch(`/api/reverseShares/${value}`)).status,
      token
    )
    assert.equal(lookup, 200)
    const left = await reverseShareCookies(upload)
    assert.lengthOf(left, 1)
    assert.equal(left[0].path, '/api/shares')
    assert.isTrue(left[0].httpOnly)

    // The ordinary upload page drops it: the next share is an ordinary visitor's share.
    await upload.goto('/upload')
    await upload.waitForSelector('html[data-hydrated]')
    assert.deepEqual(await reverseShareCookies(upload), [])
    await upload
      .getByTestId('file-input')
      .setInputFiles([{ name: 'y.txt', mimeType: 'text/plain', buffer: Buffer.from('y') }])
    await upload.getByRole('button', { name: 'Share', exact: true }).click()
    const ordinary = dialogByTitle(upload, 'Share')
    const shareId = await ordinary.getByLabel('Link', { exact: true }).inputValue()
    // Sharing by e-mail is off: no recipients field that the server would refuse.
    assert.equal(await ordinary.getByRole('combobox', { name: 'Email recipients' }).count(), 0)
    await ordinary.getByRole('button', { name: 'Share', exact: true }).click()
    await shareReady(upload)
    const share = await Share.findOrFail(shareId)
    assert.isNull(share.reverseShareId)
    assert.isNotNull(share.expiration)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('unknown and expired links show the invalid-link page with a way home', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, { shareExpiration: '1-hour' })
    const past = DateTime.utc()
      .minus({ minutes: 1 })
      .toFormat(db.connection().dialect.dateTimeFormat)
    await db.from('reverse_shares').where('token', token).update({ share_expiration: past })

    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    for (const path of [`/upload/${token}`, '/upload/no-such-token']) {
      const response = await page.goto(path)
      assert.equal(response?.status(), 404)
      await page.waitForSelector('html[data-hydrated]')
      await page.getByRole('heading', { level: 1, name: 'This upload link is not valid' }).waitFor()
      await page
        .getByTestId('reverse-share-invalid')
        .getByText(/has expired or has been used as often as allowed/)
        .waitFor()
      assert.equal(await page.getByTestId('file-input').count(), 0)
      assert.equal(await page.title(), 'This upload link is not valid - Tern')
    }
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/' || url.pathname === '/auth/signIn'),
      page.getByRole('link', { name: 'Bring me back home' }).click(),
    ])
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)
})
