import { test } from '@japa/runner'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import { collectErrors, dialogByTitle } from '#tests/helpers/browser'

test.group('My shares | browser journey', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('list, inspect, edit (rename, password, append and remove files) and delete shares', async ({
    visit,
    assert,
  }) => {
    const { user, cookie } = await shareUser({ password: 'correct horse battery' })
    const first = await createCompletedShare({
      cookie,
      id: newShareId('first'),
      name: 'First share',
      description: 'Holiday pictures',
      files: { 'one.txt': 'one' },
    })
    const second = await createCompletedShare({
      cookie,
      id: newShareId('second'),
      name: 'Second share',
      security: { maxViews: 5 },
      files: { 'keep.txt': 'keep me', 'drop.txt': 'drop me' },
    })

    // Sign in through the form, coming back to my shares.
    const page = await visit('/account/shares')
    const errors = collectErrors(page)
    await page.waitForURL((url) => url.pathname === '/auth/signIn')
    await page.waitForSelector('html[data-hydrated]')
    await page.getByLabel('Email or username').fill(user.username)
    await page.getByLabel('Password').fill('correct horse battery')
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account/shares'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')
    await page.assertTextContains('h1', 'My shares')

    // Both shares are listed.
    const table = page.getByTestId('my-shares-table')
    const firstRow = table.getByRole('row', { name: new RegExp(first.id) })
    const secondRow = table.getByRole('row', { name: new RegExp(second.id) })
    await firstRow.waitFor()
    await secondRow.waitFor()
    await page.assertTextContains(firstRow, 'First share')
    await page.assertTextContains(firstRow, 'Holiday pictures')
    await page.assertTextContains(firstRow, 'Never')
    await page.assertTextContains(secondRow, '14 bytes')
    const rows = await table.locator('tbody tr[data-row-key]').allInnerTexts()
    assert.lengthOf(rows, 2)

    // The info modal shows every detail of the share.
    await page.getByRole('button', { name: `Share info of ${second.id}` }).click()
    const info = dialogByTitle(page, 'Share info')
    await info.waitFor()
    const details = info.getByTestId('share-info')
    await page.assertTextContains(details, 'Second share')
    await page.assertTextContains(details, 'keep.txt')
    await page.assertTextContains(details, 'drop.txt')
    await page.assertTextContains(details, 'Files (2)')
    await page.assertTextContains(details.getByRole('row', { name: /Maximum views/ }), '5')
    await page.assertTextContains(details.getByRole('row', { name: /Password protected/ }), 'No')
    await info.getByRole('button', { name: 'Close' }).click()
    await info.waitFor({ state: 'hidden' })

    // The link modal shows the share's link.
    await page.getByRole('button', { name: `Share link of ${second.id}` }).click()
    const link = dialogByTitle(page, 'Share link')
    assert.match(await link.getByTestId('share-link').inputValue(), new RegExp(`/s/${second.id}$`))
    await link.getByRole('button', { name: 'Close' }).click()
    await link.waitFor({ state: 'hidden' })

    // Edit the second share: rename it and add a password.
    await Promise.all([
      page.waitForURL((url) => url.pathname === `/share/${second.id}/edit`),
      page.getByRole('link', { name: `Edit ${second.id}` }).click(),
    ])
    await page.assertTextContains('h1', `Edit share ${second.id}`)
    const settings = page.getByRole('region', { name: 'Settings' })
    await settings.getByLabel('Name').waitFor()
    assert.equal(await settings.getByLabel('Name').inputValue(), 'Second share')
    await settings.getByLabel('Name').fill('Renamed share')
    await settings.getByText('This share will never expire.').waitFor()
    await settings.getByRole('radio', { name: 'Set a new expiration' }).check()
    await settings.getByLabel('Expires after').fill('2')
    await settings.getByRole('radio', { name: 'Set a password' }).check()
    await settings.getByLabel('New password').fill('sesame')
    await settings.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Your changes have been saved.').waitFor()
    await settings.getByText('This share is protected by a password.').waitFor()
    await settings.getByText(/^This share will expire on /).waitFor()

    // Append a file: reopen, chunked upload, complete.
    const files = page.getByRole('region', { name: 'Files' })
    await files.locator('input[type="file"]').setInputFiles({
      name: 'added.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('appended content'),
    })
    await files.getByTestId('pending-files').getByText('added.txt').waitFor()
    await files.getByRole('button', { name: 'Upload 1 file' }).click()
    await page.getByText('1 file has been added.').waitFor()
    await files.getByTestId('share-files').getByText('added.txt').waitFor()
    await page.assertTextContains(files.getByTestId('share-files'), '3 files')

    // Remove another one, after the confirmation.
    await files.getByRole('button', { name: 'Remove drop.txt' }).click()
    const confirmRemove = page.getByRole('dialog').filter({ hasText: 'Remove file' })
    await confirmRemove.getByRole('button', { name: 'Remove' }).click()
    await page.getByText('drop.txt has been removed.').waitFor()
    await files.getByTestId('share-files').getByText('drop.txt').waitFor({ state: 'detached' })
    await page.assertTextContains(files.getByTestId('share-files'), '2 files')

    // The API has the changes: name, password, files (and the share is completed again).
    const owned = await api('GET', `/api/shares/${second.id}/from-owner`, { cookie })
    assert.equal(owned.status, 200)
    assert.equal(owned.json.name, 'Renamed share')
    assert.isTrue(owned.json.hasPassword)
    const expiresIn = new Date(owned.json.expiration).getTime() - Date.now()
    assert.isAbove(expiresIn, 2 * 24 * 3600_000 - 10 * 60_000)
    assert.isBelow(expiresIn, 2 * 24 * 3600_000 + 60_000)
    assert.deepEqual(
      owned.json.files.map((file: { name: string }) => file.name),
      ['added.txt', 'keep.txt']
    )
    assert.equal((await shareToken(second.id)).response.json.error, 'share_password_required')
    assert.equal((await shareToken(second.id, 'wrong')).response.json.error, 'wrong_password')
    const granted = await shareToken(second.id, 'sesame')
    assert.equal(granted.response.status, 200)
    const added = owned.json.files.find((file: { name: string }) => file.name === 'added.txt')
    const download = await api('GET', `/api/shares/${second.id}/files/${added.id}`, {
      cookie: granted.cookie,
    })
    assert.equal(download.status, 200)
    assert.equal(download.bytes.toString('utf8'), 'appended content')
    const mine = await api('GET', '/api/shares', { cookie })
    const listed = mine.json.find((share: { id: string }) => share.id === second.id)
    assert.equal(listed.security.maxViews, 5)
    assert.isTrue(listed.security.passwordProtected)

    // Back to my shares: delete both shares with the confirmation, then the empty state.
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account/shares'),
      page.getByRole('link', { name: 'Back to my shares' }).first().click(),
    ])
    await table.getByRole('row', { name: /Renamed share/ }).waitFor()
    for (const share of [first, second]) {
      await page.getByRole('button', { name: `Delete ${share.id}` }).click()
      const confirm = page.getByRole('dialog').filter({ hasText: 'Delete share' })
      await page.assertTextContains(confirm, share.id)
      await confirm.getByRole('button', { name: 'Delete' }).click()
      await page.getByText(`The share ${share.id} has been deleted.`).waitFor()
      await table.getByRole('row', { name: new RegExp(share.id) }).waitFor({ state: 'detached' })
      assert.equal((await api('GET', `/api/shares/${share.id}/from-owner`, { cookie })).status, 404)
    }
    await page.getByTestId('my-shares-empty').waitFor()
    await page.assertTextContains(page.getByTestId('my-shares-empty'), "It's empty here")
    await page.assertVisible(page.getByRole('link', { name: 'Create a share' }))

    assert.deepEqual(errors, [])
  }).timeout(120_000)
})
