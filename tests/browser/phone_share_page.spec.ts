/**
 * The visitor's side on phones: the share page lists every
 * file whole (a long name wraps instead of widening the table) with its
 * size, Preview, Copy link and Download on screen at 360 and 390 px, and
 * looks as before at 1440 px (the files are fetched after hydration: the
 * server renders the loading state, which fits as it is); its
 * other states (password, expired, view limit, the previews) and the upload
 * pages with long file names picked have nothing cut off at 360 px.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import type { Browser, Page } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cutOff } from '#tests/helpers/layout'
import {
  cleanupShareTests,
  createCompletedShare,
  setConfig,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import { createReverseShare } from '#tests/helpers/reverse_shares'

/** Long, and with a run of 40 characters no line may break in (underscores are no break opportunity). */
const LONG_NAME =
  'minutes-of-the-quarterly-review-meeting-with-every-decision_20261126T093000Z_final_signed_copy.txt'
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const FILES = {
  [LONG_NAME]: 'The minutes.\nSecond line.',
  'screenshot-2026-11-26.png': PNG,
  'firmware-update.bin': Buffer.alloc(150_000, 7),
}

/** A fresh page at `width` (a phone below 768 px: touch, mobile viewport). */
async function openAt(
  browser: Browser,
  width: number,
  options: { javaScriptEnabled?: boolean; cookie?: string } = {}
) {
  const phone = width < 768
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: phone ? 780 : 900 },
    isMobile: phone,
    hasTouch: phone,
    acceptDownloads: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  })
  if (options.cookie) {
    await context.addCookies([
      { name: 'access_token', value: options.cookie.slice('access_token='.length), url: baseUrl() },
    ])
  }
  const page = await context.newPage()
  return { context, page, errors: collectErrors(page) }
}

/** Waits until an open modal has finished its opening animation (the focus is inside). */
async function modalSettled(page: Page) {
  await page.waitForFunction(() =>
    Boolean((globalThis as any).document.activeElement?.closest('[role="dialog"]'))
  )
  await page.waitForFunction(() => {
    const modal = (globalThis as any).document.querySelector('.ant-modal')
    return (
      modal &&
      !modal.closest('.ant-zoom-appear, .ant-zoom-enter') &&
      (globalThis as any).getComputedStyle(modal).transform === 'none'
    )
  })
}

async function sharedFiles() {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, name: 'Quarterly review', files: FILES })
}

test.group('Share page and upload page | phones', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
  })
  group.each.teardown(() => cleanupShareTests())

  for (const width of [360, 390, 1440]) {
    test(`every file's name, size and actions are whole on the share page (${width} px)`, async ({
      browser,
      assert,
    }) => {
      const created = await sharedFiles()
      const { context, page, errors } = await openAt(browser, width)
      await page.goto(`/s/${created.id}`)
      await page.waitForSelector('html[data-hydrated]')
      const rows = page.getByRole('table').getByRole('row')
      await rows.filter({ hasText: 'firmware-update.bin' }).waitFor()
      assert.equal(await rows.count(), 4, 'a header row and three files')
      assert.deepEqual(await cutOff(page), [])

      for (const name of Object.keys(FILES)) {
        const row = rows.filter({ hasText: name })
        // The whole name is written out (wrapped, never cut), with its size.
        assert.include((await row.innerText()).replace(/\s+/g, ''), name)
        for (const action of ['Download', 'Copy link of']) {
          const control = page.getByRole(action === 'Download' ? 'link' : 'button', {
            name: `${action} ${name}`,
            exact: true,
          })
          assert.isTrue(await control.isVisible(), `${action} ${name}`)
        }
      }
      assert.include(await rows.filter({ hasText: 'firmware-update.bin' }).innerText(), '150 kB')
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('at 360 px a file downloads and previews through clicks, with nothing cut off in the previews', async ({
    browser,
    assert,
  }) => {
    const created = await sharedFiles()
    const { context, page, errors } = await openAt(browser, 360)
    await page.goto(`/s/${created.id}`)
    await page.waitForSelector('html[data-hydrated]')

    // On screen as the page opens: no sideways swipe or scroll brings it in.
    const link = page.getByRole('link', { name: `Download ${LONG_NAME}`, exact: true })
    const box = (await link.boundingBox())!
    assert.isAtLeast(box.x, 0)
    assert.isAtMost(box.x + box.width, 360)
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    assert.equal(download.suggestedFilename(), LONG_NAME)
    assert.isNull(await download.failure())

    await page.getByRole('button', { name: `Preview ${LONG_NAME}`, exact: true }).click()
    const text = dialogByTitle(page, LONG_NAME)
    await text.getByTestId('text-preview').waitFor()
    await modalSettled(page)
    assert.equal(await text.getByTestId('text-preview').innerText(), 'The minutes.\nSecond line.')
    assert.deepEqual(await cutOff(page, '.ant-modal-wrap'), [])
    // The title is the whole name, wrapped inside the screen.
    const title = await text.locator('.ant-modal-title').evaluate((element: any) => {
      const rect = element.getBoundingClientRect()
      return {
        left: rect.left,
        right: rect.right,
        clipped: element.scrollWidth > element.clientWidth,
        text: element.textContent,
      }
    })
    assert.deepEqual(title, {
      left: title.left,
      right: title.right,
      clipped: false,
      text: LONG_NAME,
    })
    assert.isAtLeast(title.left, 0)
    assert.isAtMost(title.right, 360)
    await text.getByRole('button', { name: 'Close', exact: true }).first().click()
    await text.waitFor({ state: 'hidden' })

    await page
      .getByRole('button', { name: 'Preview screenshot-2026-11-26.png', exact: true })
      .click()
    const image = dialogByTitle(page, 'screenshot-2026-11-26.png')
    await image.locator('img').waitFor()
    await modalSettled(page)
    assert.deepEqual(await cutOff(page, '.ant-modal-wrap'), [])
    assert.deepEqual(errors, [])
    await context.close()
  })

  test('the password prompt, an expired share and a used-up share have nothing cut off at 360 px', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const locked = await createCompletedShare({
      cookie,
      files: FILES,
      security: { password: 'open sesame' },
    })
    const expired = await createCompletedShare({ cookie, files: { 'a.txt': 'a' } })
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', expired.id).update({ expiration: past })
    const usedUp = await createCompletedShare({
      cookie,
      files: { 'a.txt': 'a' },
      security: { maxViews: 1 },
    })
    assert.equal((await shareToken(usedUp.id)).response.status, 200)

    const { context, page, errors } = await openAt(browser, 360)
    await page.goto(`/share/${locked.id}`)
    await page.waitForSelector('html[data-hydrated]')
    const prompt = page.getByRole('dialog')
    await prompt.getByLabel('Password').waitFor()
    await modalSettled(page)
    assert.deepEqual(await cutOff(page, '.ant-modal-wrap'), [])
    await prompt.getByLabel('Password').fill('open sesame')
    await page.keyboard.press('Enter')
    await page.getByRole('link', { name: `Download ${LONG_NAME}`, exact: true }).waitFor()
    await prompt.waitFor({ state: 'hidden' })
    assert.deepEqual(await cutOff(page), [])

    await page.goto(`/share/${expired.id}`)
    await page.getByRole('heading', { level: 1, name: 'Share expired' }).waitFor()
    await page.waitForSelector('html[data-hydrated]')
    assert.deepEqual(await cutOff(page), [])

    await page.goto(`/share/${usedUp.id}`)
    await page.getByRole('heading', { level: 1, name: 'Visitor limit exceeded' }).waitFor()
    await page.waitForSelector('html[data-hydrated]')
    assert.deepEqual(await cutOff(page), [])
    assert.deepEqual(errors, [])
    await context.close()
  })

  test('the upload page and a reverse share upload page show long picked names whole at 360 px', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie)
    const picked = Object.entries(FILES).map(([name, content]) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(content),
    }))
    for (const path of ['/upload', `/upload/${token}`]) {
      const { context, page, errors } = await openAt(browser, 360, {
        cookie: path === '/upload' ? cookie : undefined,
      })
      await page.goto(path)
      await page.waitForSelector('html[data-hydrated]')
      await page.getByTestId('file-input').setInputFiles(picked)
      const list = page.getByTestId('upload-file-list')
      await list.getByText('firmware-update.bin').waitFor()
      assert.include((await list.innerText()).replace(/\s+/g, ''), LONG_NAME, path)
      assert.deepEqual(await cutOff(page), [], path)
      assert.deepEqual(errors, [], path)
      await context.close()
    }
  })
})
