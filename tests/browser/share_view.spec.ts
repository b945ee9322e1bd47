import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright'
import Share from '#models/share'
import { DateTime } from 'luxon'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { onePagePdf } from '#tests/helpers/pdf'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'

/** Every answer of 400 or more the page received ("403 /api/shares/x"): a normal visit has none. */
function refusedRequests(page: Page): string[] {
  const refused: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400)
      refused.push(`${response.status()} ${new URL(response.url()).pathname}`)
  })
  return refused
}

/** A one-page PDF without a title of its own. */
const PDF = onePagePdf()

/** Waits until the focus is inside the open modal (antd moves it there once the opening animation ends). */
async function focusInDialog(page: Page) {
  await page.waitForFunction(() =>
    Boolean((globalThis as any).document.activeElement?.closest('[role="dialog"]'))
  )
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
  '',
  '| Name | Size |',
  '| ---- | ---: |',
  '| a.txt | 1 B |',
  '| <b onclick="window.__pwned=1">b.txt</b> | 2 B |',
].join('\n')

async function share(options: {
  files: Record<string, string>
  security?: { password?: string; maxViews?: number }
}) {
  const { cookie } = await shareUser()
  return createCompletedShare({
    cookie,
    name: 'Holiday files',
    description: 'Line one\nLine two',
    ...options,
  })
}

test.group('Share view | browser', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('a share without password lists its files and previews text and Markdown safely', async ({
    visit,
    assert,
  }) => {
    const created = await share({
      files: {
        'notes.txt': 'hello from the text file\nsecond line',
        'readme.md': HOSTILE_MARKDOWN,
        'data.bin': 'xyz',
        'guide.pdf': PDF,
      },
    })
    const page = await visit(`/share/${created.id}`)
    // Nothing refused, nothing red in the console: not even Chromium's "Failed to load resource".
    const errors = collectErrors(page, { strict: true })
    const refused = refusedRequests(page)
    await page.waitForSelector('html[data-hydrated]')

    await page.getByRole('heading', { level: 1, name: 'Holiday files' }).waitFor()
    assert.equal(await page.getByTestId('share-description').innerText(), 'Line one\nLine two')
    const rows = page.getByRole('table').getByRole('row')
    await rows.filter({ hasText: 'notes.txt' }).waitFor()
    assert.equal(await rows.count(), 5, 'a header row and four files')
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
    assert.equal(
      await textDialog.getByTestId('text-preview').innerText(),
      'hello from the text file\nsecond line'
    )
    await textDialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await textDialog.waitFor({ state: 'hidden' })

    // Markdown preview: rendered, with the raw HTML shown as text and nothing executed.
    await page.getByRole('button', { name: 'Preview readme.md' }).click()
    const markdown = dialogByTitle(page, 'readme.md').getByTestId('markdown-preview')
    await markdown.getByRole('heading', { name: 'Release notes' }).waitFor()
    assert.equal(await markdown.locator('strong').innerText(), 'bold')
    assert.equal(await markdown.locator('em').innerText(), 'emphasis')
    assert.equal(await markdown.locator('li').count(), 2)
    assert.equal(
      await markdown.getByRole('link', { name: 'safe link' }).getAttribute('href'),
      'https://example.com/docs'
    )
    assert.equal(await markdown.locator('script, img, [onerror]').count(), 0)
    assert.equal(await markdown.getByRole('link', { name: 'bad link' }).count(), 0)
    const text = await markdown.innerText()
    assert.include(text, '<script>window.__pwned = "script"</script>')
    assert.include(text, `<img src="x" onerror="window.__pwned = 'img'">`)
    // GitHub tables render as a table, their cells' raw HTML as text.
    const table = markdown.getByRole('table')
    assert.deepEqual(await table.getByRole('columnheader').allInnerTexts(), ['Name', 'Size'])
    assert.deepEqual(await table.getByRole('cell').allInnerTexts(), [
      'a.txt',
      '1 B',
      '<b onclick="window.__pwned=1">b.txt</b>',
      '2 B',
    ])
    assert.equal(await table.locator('b, [onclick]').count(), 0)
    assert.isUndefined(await page.evaluate(() => (globalThis as any).__pwned))
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await dialogByTitle(page, 'readme.md').waitFor({ state: 'hidden' })

    // A binary file offers no Preview (it could only say "not supported"), just Download.
    await page.getByRole('link', { name: 'Download data.bin' }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Preview data.bin' }).count(), 0)

    // A PDF: in the browser's viewer, titled with the file name (not "about:blank"); one Download button.
    await page.getByRole('button', { name: 'Preview guide.pdf' }).click()
    const pdf = dialogByTitle(page, 'guide.pdf')
    const viewer = pdf.getByTestId('pdf-preview')
    await viewer.waitFor({ state: 'attached' })
    assert.equal(await viewer.getAttribute('title'), 'guide.pdf')
    assert.match((await viewer.getAttribute('data')) ?? '', /^blob:/)
    // Chromium's viewer titles the document with the file name (it showed the blob's random id).
    // (Polled: the viewer is an extension frame, outside the page's reach for waitForFunction.)
    let viewerTitle = ''
    for (
      const deadline = Date.now() + 15_000;
      viewerTitle !== 'guide.pdf' && Date.now() < deadline;
    ) {
      const frame = page
        .frames()
        .find((candidate) => candidate.url().startsWith('chrome-extension://'))
      viewerTitle = frame ? await frame.title().catch(() => '') : ''
      if (viewerTitle !== 'guide.pdf') await page.waitForTimeout(100)
    }
    assert.equal(viewerTitle, 'guide.pdf')
    assert.equal(await pdf.getByRole('link', { name: 'Download' }).count(), 1)
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await pdf.waitFor({ state: 'hidden' })
    // Closing gives the focus back to the button that opened the preview.
    await page.waitForFunction(
      () =>
        (globalThis as any).document.activeElement?.getAttribute('aria-label') ===
        'Preview guide.pdf'
    )

    // "Download all" streams the zip of the share.
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all' }).click(),
    ])
    assert.equal(zip.suggestedFilename(), `${created.id}.zip`)

    assert.deepEqual(errors, [])
    assert.deepEqual(refused, [])
    assert.equal(
      (await Share.findOrFail(created.id)).views,
      1,
      'the visit counted one view, the previews none'
    )

    // A second visit in the same browser session: the token cookie opens the share, again without a refusal.
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await page
      .getByRole('table')
      .getByRole('row', { name: /notes\.txt/ })
      .waitFor()
    assert.deepEqual(errors, [])
    assert.deepEqual(refused, [])
    assert.equal(
      (await Share.findOrFail(created.id)).views,
      1,
      'the token cookie counts no second view'
    )
  })

  test('a password share asks for the password, refuses a wrong one and shows the files for the right one', async ({
    visit,
    assert,
  }) => {
    const created = await share({
      files: { 'a.txt': 'a', 'b.txt': 'bb' },
      security: { password: 'open sesame' },
    })
    const page = await visit(`/share/${created.id}`)
    const errors = collectErrors(page)
    const refused = refusedRequests(page)
    await page.waitForSelector('html[data-hydrated]')

    const modal = dialogByTitle(page, 'Password required')
    await modal.waitFor()
    const field = modal.getByLabel('Password')
    await page.waitForFunction(
      () => (globalThis as any).document.activeElement?.getAttribute('type') === 'password'
    )
    assert.deepEqual(
      refused,
      [],
      'the page knew to ask for the password: no refused request before it'
    )
    await field.fill('wrong guess')
    await field.press('Enter')
    await modal.getByText('Invalid password').waitFor()

    await field.fill('open sesame')
    await field.press('Enter')
    await modal.waitFor({ state: 'hidden' })
    await page.getByRole('heading', { level: 1, name: 'Holiday files' }).waitFor()
    await page
      .getByRole('table')
      .getByRole('row', { name: /b\.txt/ })
      .waitFor()
    assert.equal(
      await page.getByRole('button', { name: 'Copy link of a.txt' }).count(),
      0,
      'no direct links with a password'
    )

    // The share cookie keeps the share open on reload without asking again.
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await page
      .getByRole('table')
      .getByRole('row', { name: /a\.txt/ })
      .waitFor()
    assert.equal(await dialogByTitle(page, 'Password required').count(), 0)
    assert.deepEqual(errors, [])
    assert.deepEqual(
      refused,
      [`403 /api/shares/${created.id}/token`],
      'only the wrong guess was refused'
    )
  })

  test('an unknown share shows "Share not found" and a removed one "Share removed" with its reason', async ({
    visit,
  }) => {
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

  test('a share whose views are used up shows "Visitor limit exceeded"', async ({
    visit,
    assert,
  }) => {
    const created = await share({ files: { 'a.txt': 'a' }, security: { maxViews: 1 } })
    assert.equal((await shareToken(created.id)).response.status, 200)
    const page = await visit(`/share/${created.id}`)
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Visitor limit exceeded' }).waitFor()
    assert.equal(await page.getByRole('table').count(), 0)
  })

  test('a password share whose views are used up says so before asking for the password, also at 360 px', async ({
    browser,
    assert,
  }) => {
    const created = await share({
      files: { 'a.txt': 'a' },
      security: { password: 'open sesame', maxViews: 1 },
    })
    assert.equal((await shareToken(created.id, 'open sesame')).response.status, 200)
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 360, height: 780 },
    ]) {
      const context = await browser.newContext({ viewport })
      const page = await context.newPage()
      const errors = collectErrors(page, { strict: true })
      await page.goto(`${baseUrl()}/share/${created.id}`)
      await page.waitForSelector('html[data-hydrated]')
      await page.getByRole('heading', { level: 1, name: 'Visitor limit exceeded' }).waitFor()
      assert.equal(await page.getByRole('dialog').count(), 0, 'no password is asked')
      assert.equal(await page.getByLabel('Password').count(), 0)
      assert.isAtMost(
        await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
        viewport.width
      )
      assert.deepEqual(errors, [])
      await context.close()
    }
  })

  test('an expired share shows "Share expired", not "Share not found"', async ({
    visit,
    assert,
  }) => {
    const created = await share({ files: { 'a.txt': 'a' } })
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', created.id).update({ expiration: past })
    const page = await visit(`/share/${created.id}`)
    const errors = collectErrors(page, { strict: true })
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Share expired' }).waitFor()
    assert.equal(await page.title(), 'Share expired - Tern')
    assert.include(
      await page.getByTestId('share-state-message').innerText(),
      'This share has expired.'
    )
    assert.deepEqual(errors, [])
  })

  test('in dark mode the previews are light text on a dark page', async ({
    browserContext,
    assert,
  }) => {
    const created = await share({ files: { 'notes.txt': 'dark text', 'doc.md': '# Dark heading' } })
    await browserContext.addCookies([{ name: 'color_scheme', value: 'dark', url: baseUrl() }])
    const page = await browserContext.newPage()
    await page.goto(`${baseUrl()}/share/${created.id}`)
    await page.waitForSelector('html[data-theme="dark"][data-hydrated]')
    const lightness = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => {
          const [r, g, b] = (globalThis as any)
            .getComputedStyle(element)
            .color.match(/\d+/g)
            .map(Number)
          return (r + g + b) / 3
        })

    await page.getByRole('button', { name: 'Preview notes.txt' }).click()
    await page.getByTestId('text-preview').waitFor()
    assert.isAbove(await lightness('[data-testid="text-preview"]'), 180)
    await focusInDialog(page)
    await page.keyboard.press('Escape')
    await dialogByTitle(page, 'notes.txt').waitFor({ state: 'hidden' })

    // The pointer still rests where the notes.txt button was: its tooltip would cover the row above.
    await page.mouse.move(0, 0)
    await page.getByRole('tooltip').waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Preview doc.md' }).click()
    await page
      .getByTestId('markdown-preview')
      .getByRole('heading', { name: 'Dark heading' })
      .waitFor()
    assert.isAbove(await lightness('[data-testid="markdown-preview"] h1'), 180)
  })
})
