/**
 * Received shares in Chromium against the real server: a share made through
 * one of my reverse shares is listed in My shares, marked with the reverse
 * share's token, with its link (copyable) and open actions, on a desktop and
 * at 360 px; in the reverse-shares list its entry is a real link. GET
 * /api/shares itself keeps Pingvin's semantics (own shares only).
 */
import { test } from '@japa/runner'
import { baseUrl, dialogByTitle, openSignedIn } from '#tests/helpers/browser'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

// Globals of the page the evaluated functions run in (the tests' tsconfig has no DOM library).
declare const document: any

test.group('My shares | received through my reverse shares | browser', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
  })
  group.each.teardown(() => cleanupShareTests())

  for (const width of [1440, 360]) {
    test(`a share received through my reverse share is in My shares with link and open (${width} px)`, async ({
      browser,
      assert,
    }) => {
      const { cookie } = await shareUser()
      const own = await createCompletedShare({
        cookie,
        id: newShareId('own'),
        name: 'Mine',
        files: { 'a.txt': 'a' },
      })
      const { token } = await createReverseShare(cookie)
      const { shareId: receivedId } = await completedReverseShareUpload(
        token,
        { 'from-visitor.txt': 'hello' },
        { id: newShareId('got') }
      )

      // Pingvin's list keeps its meaning: the caller's own shares only.
      const listed = await api('GET', '/api/shares', { cookie })
      assert.deepEqual(
        (listed.json as { id: string }[]).map((share) => share.id),
        [own.id]
      )

      const { context, page, errors } = await openSignedIn(browser, cookie, '/account/shares', {
        width: width,
      })
      const table = page.getByTestId('my-shares-table')
      const receivedRow = table.getByRole('row', { name: new RegExp(receivedId) })
      const ownRow = table.getByRole('row', { name: new RegExp(own.id) })
      await receivedRow.waitFor()
      await ownRow.waitFor()
      await page.assertTextContains(
        receivedRow.getByTestId('received-through'),
        `Received through reverse share ${token}`
      )
      assert.equal(await ownRow.getByTestId('received-through').count(), 0)
      // Not mine to edit or delete: no such actions on it; mine keep them.
      assert.equal(await page.getByRole('button', { name: `Edit ${receivedId}` }).count(), 0)
      assert.equal(await page.getByRole('button', { name: `Delete ${receivedId}` }).count(), 0)
      assert.equal(await page.getByRole('button', { name: `Open ${own.id}` }).count(), 0)
      assert.equal(
        (await page.getByRole('link', { name: `Edit ${own.id}` }).count()) +
          (await page.getByRole('button', { name: `Edit ${own.id}` }).count()),
        1
      )

      // Its link, with a copy button.
      await page.getByRole('button', { name: `Share link of ${receivedId}` }).click()
      const linkModal = dialogByTitle(page, 'Share link')
      assert.match(
        await linkModal.getByTestId('share-link').inputValue(),
        new RegExp(`/s/${receivedId}$`)
      )
      assert.isTrue(await linkModal.getByRole('button', { name: /copy/i }).first().isVisible())
      await linkModal.getByRole('button', { name: 'Close' }).click()
      await linkModal.waitFor({ state: 'hidden' })

      // Nothing is cut off at this width.
      assert.isFalse(
        await page.evaluate(
          () => document.documentElement.scrollWidth > document.documentElement.clientWidth
        )
      )

      // Open goes to the share page, which lists the visitor's file.
      const open = page.getByRole('link', { name: `Open ${receivedId}` })
      await open.scrollIntoViewIfNeeded()
      await open.click()
      await page.waitForURL((url) => url.pathname.endsWith(`/${receivedId}`))
      await page.getByText('from-visitor.txt').first().waitFor()
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('in the reverse-shares list a received share is a real link', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie)
    const { shareId } = await completedReverseShareUpload(token, { 'x.txt': 'x' })
    const { context, page, errors } = await openSignedIn(
      browser,
      cookie,
      '/account/reverseShares',
      { width: 1440 }
    )
    await page.locator('.ant-table-row-expand-icon').first().click()
    const link = page.getByTestId('reverse-share-share-link')
    await link.waitFor()
    assert.equal(await link.evaluate((element: any) => element.tagName), 'A')
    assert.equal(await link.getAttribute('href'), `/share/${shareId}`)
    // It looks like a link: the theme's link colour, underlined, not the text colour.
    const style = await link.evaluate((element: any) => {
      const computed = (globalThis as any).getComputedStyle(element)
      const text = (globalThis as any).getComputedStyle(document.body)
      return {
        color: computed.color,
        textColor: text.color,
        decoration: computed.textDecorationLine,
      }
    })
    assert.notEqual(style.color, style.textColor)
    assert.equal(style.decoration, 'underline')
    await link.click()
    await page.waitForURL((url) => url.pathname === `/share/${shareId}`)
    await page.getByText('x.txt').first().waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })
})
