/**
 * In Chromium against the real server: My shares and
 * Reverse shares on phones (360 and 390 px) and on a desktop (1440 px).
 * Nothing is cut off (cutOff of tests/helpers/layout: no sideways scroll, no
 * value off-screen, clipped or under a sticky column), with long ids, names
 * and descriptions, a share received through a reverse share and an expanded
 * reverse share; on a phone each value sits next to its column's name, and
 * each action (link, edit, delete with its confirmation, open) works.
 */
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { baseUrl, dialogByTitle, openSignedIn, RELOAD_TIMEOUT_MS } from '#tests/helpers/browser'
import { cutOff } from '#tests/helpers/layout'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

const PHONES = [360, 390]
const LONG_NAME = 'Holiday-photos-and-notes-2026x'
const LONG_DESCRIPTION =
  'Three folders of holiday photos, the notes of every evening and the receipts for the accounting, ' +
  'kept together until the end of the year: https://example.com/a/really/long/address/without/any/break/in/it/at/all ' +
  'and a few more words so that the description runs over several lines on any screen.'

/** A user with three shares of their own and a reverse share with two shares made through it. */
async function seed() {
  const { cookie } = await shareUser()
  const long = await createCompletedShare({
    cookie,
    id: newShareId('a-rather-long-share-identifier-x'),
    name: LONG_NAME,
    description: LONG_DESCRIPTION,
    expiration: '3-days',
    security: { maxViews: 5 },
    files: { 'notes.txt': 'notes', 'photo.jpg': Buffer.alloc(150_000) },
  })
  const plain = await createCompletedShare({
    cookie,
    id: newShareId('plain'),
    files: { 'a.txt': 'a' },
  })
  const named = await createCompletedShare({
    cookie,
    id: newShareId('named'),
    name: 'Minutes',
    files: { 'm.txt': 'm' },
  })
  const { token } = await createReverseShare(cookie, { maxUseCount: 5 })
  const received = await completedReverseShareUpload(
    token,
    { 'from-visitor.txt': 'hello' },
    { id: newShareId('got-from-a-visitor-with-a-long-id'), body: { name: 'Signed contract scans' } }
  )
  const second = await completedReverseShareUpload(token, { 'b.txt': 'b' })
  return { cookie, long, plain, named, token, received: received.shareId, second: second.shareId }
}

/** Whether the cell of the row named `rowName` that holds `label` (its column's name) shows it, and its value. */
async function labelled(page: Page, rowName: RegExp, label: string) {
  const cell = page.getByRole('row', { name: rowName }).getByRole('cell').filter({ hasText: label })
  const shown = cell.getByText(label, { exact: true })
  await shown.waitFor()
  return {
    visible: await shown.isVisible(),
    value: (await cell.innerText()).replace(label, '').trim(),
  }
}

test.group('My shares and Reverse shares | phones and desktop | browser', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
  })
  group.each.teardown(() => cleanupShareTests())

  for (const width of [...PHONES, 1440]) {
    test(`nothing is cut off on My shares and Reverse shares (${width} px)`, async ({
      browser,
      assert,
    }) => {
      const data = await seed()
      const { context, page, errors } = await openSignedIn(
        browser,
        data.cookie,
        '/account/shares',
        {
          width: width,
          phoneBelow: 1000,
          height: width < 1000 ? 740 : 900,
          timeout: RELOAD_TIMEOUT_MS,
        }
      )
      const table = page.getByTestId('my-shares-table')
      for (const id of [data.long.id, data.plain.id, data.named.id, data.received, data.second]) {
        await table
          .getByRole('row', { name: new RegExp(id) })
          .waitFor({ timeout: RELOAD_TIMEOUT_MS })
      }
      await page.assertTextContains(
        table.getByRole('row', { name: new RegExp(data.long.id) }),
        LONG_NAME
      )
      assert.deepEqual(await cutOff(page), [])

      if (width < 1000) {
        // A phone: each value sits next to its column's name.
        const row = new RegExp(data.long.id)
        assert.deepEqual(await labelled(page, row, 'Visitors'), { visible: true, value: '0' })
        assert.deepEqual(await labelled(page, row, 'Size'), { visible: true, value: '150 kB' })
        assert.match((await labelled(page, row, 'Expires at')).value, /\d{4}/)
        assert.match((await labelled(page, row, 'Created at')).value, /\d{4}/)
        assert.include(
          (await labelled(page, row, 'Description')).value,
          'Three folders of holiday photos'
        )
      } else {
        // A desktop: the description's first lines, all of it in a tooltip.
        await table.getByText(/^Three folders of holiday photos/).hover()
        await page
          .getByRole('tooltip')
          .filter({ hasText: 'runs over several lines on any screen.' })
          .waitFor()
      }

      // Reverse shares, then with its row expanded to the two shares made through it.
      await page.goto('/account/reverseShares')
      await page.waitForSelector('html[data-hydrated]')
      const row = page.getByTestId('reverse-shares-table').locator('tbody tr[data-row-key]')
      await row.waitFor()
      assert.equal(await row.getByTestId('reverse-share-count').textContent(), '2')
      await page.assertTextContains(row, '1 MB')
      assert.deepEqual(await cutOff(page), [])
      await row.getByRole('button', { name: 'Expand row' }).click()
      const shares = page.getByTestId('reverse-share-shares')
      await shares.getByRole('link', { name: `Signed contract scans (${data.received})` }).waitFor()
      assert.deepEqual(await cutOff(page), [])
      if (width < 1000) {
        // No column to sort by: no header bar above the cards.
        assert.isFalse(
          await page.getByTestId('reverse-shares-table').locator('thead tr').isVisible()
        )
        const cells = page.getByTestId('reverse-shares-table').locator('tbody tr[data-row-key] td')
        for (const [label, value] of [
          ['Shares', '2'],
          ['Remaining uses', '3'],
          ['Max share size', '1 MB'],
          ['Expires at', 'Never'],
        ]) {
          const cell = cells.filter({ has: page.getByText(label, { exact: true }) })
          assert.isTrue(await cell.getByText(label, { exact: true }).isVisible(), label)
          assert.equal((await cell.innerText()).replace(label, '').trim(), value)
        }
      }
      assert.deepEqual(errors, [])
      await context.close()
    }).timeout(180_000)
  }

  test('at 360 px every action of My shares and Reverse shares can be clicked and works', async ({
    browser,
    assert,
  }) => {
    const data = await seed()
    const { context, page, errors } = await openSignedIn(browser, data.cookie, '/account/shares', {
      width: 360,
      phoneBelow: 1000,
      height: 740,
      timeout: RELOAD_TIMEOUT_MS,
    })
    const table = page.getByTestId('my-shares-table')
    await table
      .getByRole('row', { name: new RegExp(data.long.id) })
      .waitFor({ timeout: RELOAD_TIMEOUT_MS })

    // The sortable columns stay above the cards: by size, smallest then largest first.
    const firstRowIs = (id: string) =>
      page.waitForFunction(
        (expected) =>
          (globalThis as any).document
            .querySelector('[data-testid=my-shares-table] tbody tr[data-row-key]')
            ?.getAttribute('data-row-key') === expected,
        id
      )
    const bySize = table.getByRole('columnheader', { name: 'Size' })
    await bySize.click()
    await table
      .locator('tbody tr[data-row-key]')
      .last()
      .and(page.locator(`[data-row-key="${data.long.id}"]`))
      .waitFor()
    await bySize.click()
    await firstRowIs(data.long.id)

    // Info.
    await page.getByRole('button', { name: `Share info of ${data.long.id}` }).click()
    const info = dialogByTitle(page, 'Share info')
    await page.assertTextContains(info.getByRole('row', { name: /Maximum views/ }), '5')
    await info.getByRole('button', { name: 'Close' }).first().click()
    await info.waitFor({ state: 'hidden' })

    // Link.
    await page.getByRole('button', { name: `Share link of ${data.long.id}` }).click()
    const linkModal = dialogByTitle(page, 'Share link')
    assert.match(
      await linkModal.getByTestId('share-link').inputValue(),
      new RegExp(`/s/${data.long.id}$`)
    )
    await linkModal.getByRole('button', { name: 'Close' }).click()
    await linkModal.waitFor({ state: 'hidden' })

    // Edit goes to the share's edit page, and back.
    await Promise.all([
      page.waitForURL((url) => url.pathname.endsWith(`/${data.long.id}/edit`)),
      page.getByRole('link', { name: `Edit ${data.long.id}` }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/account/shares')
    await table.getByRole('row', { name: new RegExp(data.plain.id) }).waitFor()

    // Delete with its confirmation: cancel keeps the share, confirm deletes it.
    await page.getByRole('button', { name: `Delete ${data.plain.id}` }).click()
    let confirm = dialogByTitle(page, 'Delete share')
    await page.assertTextContains(confirm, data.plain.id)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'hidden' })
    assert.equal(
      (await api('GET', `/api/shares/${data.plain.id}/from-owner`, { cookie: data.cookie })).status,
      200
    )
    await page.getByRole('button', { name: `Delete ${data.plain.id}` }).click()
    confirm = dialogByTitle(page, 'Delete share')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    const done = page
      .locator('.ant-notification-notice')
      .filter({ hasText: `The share ${data.plain.id} has been deleted.` })
    await done.waitFor()
    await confirm.waitFor({ state: 'hidden' })
    await done.getByLabel('Close').first().click()
    await done.waitFor({ state: 'detached' })
    await table.getByRole('row', { name: new RegExp(data.plain.id) }).waitFor({ state: 'detached' })
    assert.equal(
      (await api('GET', `/api/shares/${data.plain.id}/from-owner`, { cookie: data.cookie })).status,
      404
    )
    assert.deepEqual(await cutOff(page), [])

    // A received share opens.
    await Promise.all([
      page.waitForURL((url) => url.pathname.endsWith(`/${data.received}`)),
      page.getByRole('link', { name: `Open ${data.received}` }).click(),
    ])
    await page.getByText('from-visitor.txt').first().waitFor()

    // Reverse shares: link, then delete with its confirmation.
    await page.goto('/account/reverseShares')
    await page.waitForSelector('html[data-hydrated]')
    const row = page.getByTestId('reverse-shares-table').locator('tbody tr[data-row-key]')
    await row.waitFor()
    await row.getByRole('button', { name: 'Show link' }).click()
    const reverseLink = dialogByTitle(page, 'Reverse share link')
    assert.equal(
      await reverseLink.getByLabel('Reverse share link').inputValue(),
      `${baseUrl()}/upload/${data.token}`
    )
    await reverseLink.getByRole('button', { name: 'Close' }).click()
    await reverseLink.waitFor({ state: 'hidden' })
    await row.getByRole('button', { name: 'Delete' }).click()
    const confirmReverse = dialogByTitle(page, 'Delete reverse share')
    await confirmReverse.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('The reverse share has been deleted.').waitFor()
    await page.getByTestId('reverse-shares-empty').waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)
})
