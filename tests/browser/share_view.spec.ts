import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright'
import Share from '#models/share'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cleanupShareTests, createCompletedShare, newShareId, shareToken, shareUser } from '#tests/helpers/shares'

/** Waits until the focus is inside the open modal (antd moves it there once the opening animation ends). */
async function focusInDialog(page: Page) {
  await page.waitForFunction(() => Boolean((globalThis as any).document.activeElement?.closest('[role="dialog"]')))
}

/** A Markdown file whose raw HTML must never become HTML in the preview. */
const HOSTILE_MARKDOWN = [
  '# Release notes',
  '',
  'Some **bold** and *emphasis* with `code` and a [safe link](https://example.com/docs).',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '',
  '[bad link](javascript:window.__pwned=1)',
  '',
  '- first item',
  '- second item',
].join('\n')

async function share(options: { files: Record<string, string>; security?: { password?: string; maxViews?: number } }) {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, name: 'Holiday files', description: 'Line one\nLine two', ...options })
}

test.group('Share view | browser', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('a share without password lists its files and previews text and Markdown safely', async ({ visit, assert }) => {
    const created = await share({
      files: { 'notes.txt': 'hello from the text file\nsecond line', 'readme.md': HOSTILE_MARKDOWN, 'data.bin': 'xyz' },
    })
    const page = await visit(`/share/${created.id}`)
    const errors = collectErrors(page)
    await page.waitForSelector('html[data-hydrated]')

    await page.getByRole('heading', { level: 1, name: 'Holiday files' }).waitFor()
    assert.equal(await page.getByTestId('share-description').innerText(), 'Line one\nLine two')
    const rows = page.getByRole('table').getByRole('row')
    await rows.filter({ hasText: 'notes.txt' }).waitFor()
    assert.equal(await rows.count(), 4, 'a header row and three files')
    assert.include(await rows.filter({ hasText: 'notes.txt' }).innerText(), '36 bytes')
    await page.getByRole('button', { name: 'Copy link of notes.txt' }).waitFor()
    const download = page.getByRole('link', { name: 'Download notes.txt' })
    assert.equal(
      await download.getAttribute('href'),
      `/api/shares/${created.id}/files/${created.fileIds['notes.txt']}?download=true`
    )

    // Text preview: the file's content in a <pre>.
    await page.getByRole('button', { name: 'Preview notes.txt' }).click()
    const textDialog = dialogByTitle(page, 'notes.txt')
    await textDialog.getByTestId('text-preview').waitFor()
    await focusInDialog(page)
    assert.equal(await textDialog.getByTestId('text-preview').innerText(), 'hello from the text file\nsecond line')
    await textDialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await textDialog.waitFor({ state: 'hidden' })

    // Markdown preview: rendered, with the raw HTML shown as text and nothing executed.
    await page.getByRole('button', { name: 'Preview readme.md' }).click()
    const markdown = dialogByTitle(page, 'readme.md').getByTestId('markdown-preview')
    await markdown.getByRole('heading', { name: 'Release notes' }).waitFor()
    assert.equal(await markdown.locator('strong').innerText(), 'bold')
    assert.equal(await markdown.locator('em').innerText(), 'emphasis')
    assert.equal(await markdown.locator('li').count(), 2)
    assert.equal(await markdown.getByRole('link', { name: 'safe link' }).getAttribute('href'), 'https://example.com/docs')
    assert.equal(await markdown.locator('script, img, [onerror]').count(), 0)
    assert.equal(await markdown.getByRole('link', { name: 'bad link' }).count(), 0)
    const text = await markdown.innerText()
    assert.include(text, '<script>window.__pwned = "script"</script>')
    assert.include(text, `<img src="x" onerror="window.__pwned = 'img'">`)
    assert.isUndefined(await page.evaluate(() => (globalThis as any).__pwned))
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await dialogByTitle(page, 'readme.md').waitFor({ state: 'hidden' })

    // Other files: "Preview not supported" with a download button.
    await page.getByRole('button', { name: 'Preview data.bin' }).click()
    const other = dialogByTitle(page, 'data.bin')
    await other.getByText('Preview not supported').waitFor()
    await other.getByRole('link', { name: 'Download' }).first().waitFor()
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await other.waitFor({ state: 'hidden' })
    // Closing gives the focus back to the button that opened the preview.
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') === 'Preview data.bin')

    // "Download all" streams the zip of the share.
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all' }).click()])
    assert.equal(zip.suggestedFilename(), `${created.id}.zip`)

    assert.deepEqual(errors, [])
    assert.equal((await Share.findOrFail(created.id)).views, 1, 'the visit counted one view, the previews none')
  })

  test('a password share asks for the password, refuses a wrong one and shows the files for the right one', async ({ visit, assert }) => {
    const created = await share({ files: { 'a.txt': 'a', 'b.txt': 'bb' }, security: { password: 'open sesame' } })
    const page = await visit(`/share/${created.id}`)
    const errors = collectErrors(page)
    await page.waitForSelector('html[data-hydrated]')

    const modal = dialogByTitle(page, 'Password required')
    await modal.waitFor()
    const field = modal.getByLabel('Password')
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('type') === 'password')
    await field.fill('wrong guess')
    await field.press('Enter')
    await modal.getByText('Invalid password').waitFor()

    await field.fill('open sesame')
    await field.press('Enter')
    await modal.waitFor({ state: 'hidden' })
    await page.getByRole('heading', { level: 1, name: 'Holiday files' }).waitFor()
    await page.getByRole('table').getByRole('row', { name: /b\.txt/ }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Copy link of a.txt' }).count(), 0, 'no direct links with a password')

    // The share cookie keeps the share open on reload without asking again.
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('table').getByRole('row', { name: /a\.txt/ }).waitFor()
    assert.equal(await dialogByTitle(page, 'Password required').count(), 0)
    assert.deepEqual(errors, [])
  })

  test('an unknown share shows "Share not found" and a removed one "Share removed" with its reason', async ({ visit }) => {
    const page = await visit(`/share/${newShareId('missing')}`)
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Share not found' }).waitFor()

    const created = await share({ files: { 'a.txt': 'a' } })
    await db.from('shares').where('id', created.id).update({ removed_reason: 'Violates the terms' })
    await page.goto(`/share/${created.id}`)
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Share removed' }).waitFor()
    await page.getByText('Violates the terms').waitFor()
  })

  test('a share whose views are used up shows "Visitor limit exceeded"', async ({ visit, assert }) => {
    const created = await share({ files: { 'a.txt': 'a' }, security: { maxViews: 1 } })
    assert.equal((await shareToken(created.id)).response.status, 200)
    const page = await visit(`/share/${created.id}`)
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Visitor limit exceeded' }).waitFor()
    assert.equal(await page.getByRole('table').count(), 0)
  })

  test('in dark mode the previews are light text on a dark page', async ({ browserContext, assert }) => {
    const created = await share({ files: { 'notes.txt': 'dark text', 'doc.md': '# Dark heading' } })
    await browserContext.addCookies([{ name: 'color_scheme', value: 'dark', url: baseUrl() }])
    const page = await browserContext.newPage()
    await page.goto(`${baseUrl()}/share/${created.id}`)
    await page.waitForSelector('html[data-theme="dark"][data-hydrated]')
    const lightness = (selector: string) =>
      page.locator(selector).first().evaluate((element) => {
        const [r, g, b] = (globalThis as any).getComputedStyle(element).color.match(/\d+/g).map(Number)
        return (r + g + b) / 3
      })

    await page.getByRole('button', { name: 'Preview notes.txt' }).click()
    await page.getByTestId('text-preview').waitFor()
    assert.isAbove(await lightness('[data-testid="text-preview"]'), 180)
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await dialogByTitle(page, 'notes.txt').waitFor({ state: 'hidden' })

    await page.getByRole('button', { name: 'Preview doc.md' }).click()
    await page.getByTestId('markdown-preview').getByRole('heading', { name: 'Dark heading' }).waitFor()
    assert.isAbove(await lightness('[data-testid="markdown-preview"] h1'), 180)
  })
})
