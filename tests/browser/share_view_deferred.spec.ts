/**
 * The parts of a visitor's share page that load on first use
 * (antd's Tooltip and Dropdown, the burger drawer): they still work, and
 * loading them changes nothing under the visitor's focus.
 */
import { test } from '@japa/runner'
import { collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'

test.group('Share view | parts loaded on first use', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('the file buttons show their tooltips on hover and keep the focus; the header menus open on the first click', async ({
    visit,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const created = await createCompletedShare({
      cookie,
      name: 'Deferred',
      files: { 'notes.txt': 'hello' },
    })
    const page = await visit(`/share/${created.id}`)
    const errors = collectErrors(page)
    await page.waitForSelector('html[data-hydrated]')
    const download = page.getByRole('link', { name: 'Download notes.txt' })
    await download.waitFor()

    // The focus stays on a button whose tooltip loads meanwhile.
    await download.focus()
    await download.hover()
    await page.getByRole('tooltip', { name: 'Download' }).waitFor()
    assert.isTrue(
      await download.evaluate((element) => element === (globalThis as any).document.activeElement)
    )

    // Leaving the button hides its tooltip; the copy button shows its own.
    await page.getByRole('button', { name: 'Copy link of notes.txt' }).hover()
    await page.getByRole('tooltip', { name: 'Copy link of notes.txt' }).waitFor()
    await page.getByRole('tooltip', { name: 'Download' }).waitFor({ state: 'hidden' })

    // The language menu opens on its first click, with its choices.
    await page.getByRole('button', { name: /^Language/ }).click()
    await page.getByRole('menuitem', { name: 'Deutsch' }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('menuitem', { name: 'Deutsch' }).waitFor({ state: 'hidden' })
    assert.deepEqual(errors, [])
  })
})
