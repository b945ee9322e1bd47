/**
 * The upload page says what it is doing:
 * per-file progress bars with their percentage, the bytes done of the total,
 * the speed and the time left while chunks are in flight, a polite live
 * region, a layout that holds on a 360 px phone, and French units. The
 * "in progress" state is observed by holding the chunk requests in a
 * Playwright route until the test has looked, never by racing the upload.
 */
import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import type { Browser, Page, Route } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cleanupShareTests, newShareId, setConfig, shareUser } from '#tests/helpers/shares'

const CHUNK = 100_000

/** A signed-in page on the upload form, in a 360 px wide phone viewport. */
async function uploadPage(browser: Browser, cookie: string, language = 'en-US') {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 360, height: 740 },
  })
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
    { name: 'language', value: language, url: baseUrl() },
  ])
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto('/upload')
  await page.waitForSelector('html[data-hydrated]')
  return { context, page, errors }
}

/**
 * Lets the first `free` chunk requests through and holds the others until
 * `release()` is called (then they all go on).
 */
async function holdChunks(page: Page, free: number) {
  let passed = 0
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => /^\/api\/shares\/[^/]+\/files$/.test(url.pathname),
    async (route: Route) => {
      if (passed++ >= free) await gate
      await route.continue()
    }
  )
  return { release, passed: () => passed }
}

/** Creates the share from the modal with a fresh id. */
async function share(page: Page, buttonName: string) {
  await page.getByRole('button', { name: buttonName, exact: true }).click()
  const modal = page.getByRole('dialog')
  const idInput = modal.locator('input').first()
  await idInput.waitFor()
  await idInput.fill(newShareId('progress'))
  await modal.getByRole('button', { name: buttonName, exact: true }).click()
}

test.group('Upload | progress, speed and time left', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    await setConfig('share.chunkSize', String(CHUNK))
    await setConfig('share.autoOpenShareModal', 'false')
  })
  group.each.teardown(() => cleanupShareTests())

  test('per-file progress, bytes, speed and time left show while chunks are in flight, on a phone', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { context, page, errors } = await uploadPage(browser, cookie)
    await page.getByTestId('file-input').setInputFiles([
      {
        name: 'big.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytes(CHUNK * 4 + 50_000),
      },
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first small file') },
      {
        name: 'a-rather-long-name-from-a-phone-camera-2026-11-26-holiday.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('second small file'),
      },
    ])
    await page.getByTestId('upload-file-list').getByText('big.bin').waitFor()

    // Chunk 0 of each file goes through (the small files finish), big.bin's later chunks wait.
    const chunks = await holdChunks(page, 3)
    await share(page, 'Share')

    const bigBar = page.getByRole('progressbar', { name: 'Upload progress of big.bin' })
    const smallBar = page.getByRole('progressbar', { name: 'Upload progress of a.txt' })
    await page.getByTestId('upload-status').getByText('Uploading 2 of 3 files (22%)').waitFor()
    await smallBar.getByText('100%').waitFor()
    await bigBar.getByText('22%').waitFor()
    await page
      .getByRole('progressbar', { name: 'Overall upload progress' })
      .getByText('22%')
      .waitFor()
    assert.equal(await page.getByTestId('upload-bytes').textContent(), '100 kB of 450 kB')
    // After the first second the speed is measured (a moving average, here decaying while the chunks wait).
    await page
      .getByTestId('upload-speed')
      .filter({ hasText: /^[\d.,]+\s(byte|kB|MB|GB)\/s$/ })
      .waitFor()
    await page
      .getByTestId('upload-time-left')
      .filter({ hasText: /^(About .+ left|A few seconds left)$/ })
      .waitFor()
    // The polite live region said where the upload stands, the visible text is not live itself.
    assert.match((await page.getByRole('status').textContent()) ?? '', /^Uploading \d of 3 files/)
    assert.isNull(await page.getByTestId('upload-status').getAttribute('aria-live'))
    // Nothing sticks out of a 360 px screen (the long name wraps).
    assert.isAtMost(
      await page
        .locator('html')
        .evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth),
      360
    )

    chunks.release()
    await dialogByTitle(page, 'Share ready').waitFor({ timeout: 60_000 })
    await page.getByRole('status').getByText('All files are uploaded.').waitFor()
    assert.equal(
      chunks.passed(),
      3 + 4,
      'one request per chunk: 5 for big.bin, 1 for each small file'
    )
    assert.deepEqual(errors, [])
    await context.close()
  })

  test('French gets its own units and spacing: ko, Mo, "22 %"', async ({ browser, assert }) => {
    const { cookie } = await shareUser()
    const { context, page, errors } = await uploadPage(browser, cookie, 'fr-FR')
    await page.getByTestId('file-input').setInputFiles([
      {
        name: 'gros.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytes(CHUNK * 4 + 50_000),
      },
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('premier petit fichier') },
      { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('deuxième petit fichier') },
    ])
    await page.getByTestId('upload-file-list').getByText('gros.bin').waitFor()
    const chunks = await holdChunks(page, 3)
    await share(page, 'Partager')

    const status = page.getByTestId('upload-status')
    await status.filter({ hasText: /^2 fichiers envoyés sur 3 \(22\s%\)$/ }).waitFor()
    await page
      .getByTestId('upload-bytes')
      .filter({ hasText: /^100\sko sur 450\sko$/ })
      .waitFor()
    await page
      .getByTestId('upload-speed')
      .filter({ hasText: /^[\d,\s]+(o|ko|Mo|Go)\/s$/ })
      .waitFor()
    await page
      .getByTestId('upload-time-left')
      .filter({ hasText: /^(Temps restant\s: environ .+|Plus que quelques secondes)$/ })
      .waitFor()
    assert.notInclude((await status.textContent()) ?? '', '22%', 'French puts a space before %')

    chunks.release()
    await dialogByTitle(page, 'Partage prêt').waitFor({ timeout: 60_000 })
    assert.deepEqual(errors, [])
    await context.close()
  })
})
