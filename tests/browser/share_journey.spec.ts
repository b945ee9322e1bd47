import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { unzip } from '#tests/helpers/zip'

/** A fresh browser context on the test server that accepts downloads. */
function freshContext(browser: Browser) {
  return browser.newContext({ baseURL: baseUrl(), acceptDownloads: true })
}

const CHUNK = 1000

/**
 * The control with the keyboard focus, by its accessible name (its label or
 * text), or what is wrong with it: an element with no size, or one that draws
 * no focus indicator (an outline, or for a text field its focus shadow).
 */
function focusedControl(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const element = (globalThis as any).document.activeElement
    // antd fades its focus styles in: read them once that has finished.
    await Promise.all(
      element.getAnimations().map((animation: { finished: Promise<unknown> }) => animation.finished)
    )
    const box = element.getBoundingClientRect()
    const style = (globalThis as any).getComputedStyle(element)
    const name = element.getAttribute('aria-label') || element.textContent.trim() || element.tagName
    if (box.width === 0 || box.height === 0) return `${name} (empty)`
    const outlined = style.outlineStyle !== 'none' && style.outlineWidth !== '0px'
    const shadowed =
      element.tagName === 'INPUT' &&
      style.boxShadow !== 'none' &&
      !/^rgba\(0, 0, 0, 0\)/.test(style.boxShadow)
    return outlined || shadowed ? name : `${name} (no focus indicator)`
  })
}

test.group('Shares | browser journey', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    // Small chunks: the second file goes up in several chunks, in parallel.
    await setConfig('share.chunkSize', String(CHUNK))
  })
  group.each.teardown(() => cleanupShareTests())

  test('upload two files, create a password share, open it in a fresh browser, preview the text file and download all', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const taken = await createCompletedShare({
      cookie,
      files: { 'old.txt': 'old' },
      id: newShareId('taken'),
    })
    const text = 'Hello from the Tern journey.\nSecond line.'
    const binary = randomBytes(CHUNK * 3 + 500)
    const password = 'open-sesame'

    // The uploader, signed in through the access cookie.
    const owner = await freshContext(browser)
    await owner.addCookies([
      { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
    ])
    const page = await owner.newPage()
    const errors = collectErrors(page)
    await page.goto('/upload')
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Upload' }).waitFor()
    // The pickers are named by their labels alone (not "cloud-upload Choose files": the icon is decoration).
    await page.getByRole('button', { name: 'Choose files', exact: true }).waitFor()
    await page.getByRole('button', { name: 'Choose a folder', exact: true }).waitFor()

    await page.getByTestId('file-input').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) },
      { name: 'data.bin', mimeType: 'application/octet-stream', buffer: binary },
    ])
    const list = page.getByTestId('upload-file-list')
    await list.getByText('notes.txt').waitFor()
    await list.getByText('data.bin').waitFor()
    await list.getByText('3.5 KB').waitFor()
    await page.getByText('2 files, 3.5 KB in total').waitFor()

    // The create-share modal: a generated id, the link rules and the availability check.
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    const modal = dialogByTitle(page, 'Share')
    const idInput = modal.getByLabel('Link', { exact: true })
    await idInput.waitFor()
    assert.match(await idInput.inputValue(), /^[A-Za-z0-9]{8}$/)
    await idInput.fill('not valid!')
    await modal.getByText('Can only contain letters, numbers, underscores, and hyphens').waitFor()
    await idInput.fill(taken.id)
    await modal.getByText('This link is already in use').waitFor()
    const shareId = newShareId('journey')
    await idInput.fill(shareId)
    await modal.getByText('This link is already in use').waitFor({ state: 'detached' })

    await modal.getByText('Security options').click()
    await modal.getByLabel('Password protection').fill(password)
    await modal.getByRole('button', { name: 'Share', exact: true }).click()

    // Progress, then the share-ready modal with the link, the QR code and the expiry.
    const ready = dialogByTitle(page, 'Share ready')
    await ready.waitFor({ timeout: 30_000 })
    const link = await ready.getByLabel('Share link').inputValue()
    assert.equal(link, `${baseUrl()}/s/${shareId}`)
    assert.equal(await ready.getByRole('img', { name: `QR code of the link ${link}` }).count(), 1)
    assert.match(
      (await ready.getByTestId('share-expiration').textContent()) ?? '',
      /^This share will expire on /
    )
    await page.getByText('All files are uploaded.').waitFor()

    // Tab goes round the dialog's controls, each shown on screen, Shift+Tab back: never an empty or unmarked stop.
    await page.waitForFunction(
      () => (globalThis as any).document.activeElement?.textContent === 'Done'
    )
    const stops: string[] = []
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key)
      stops.push(await focusedControl(page))
    }
    assert.deepEqual(stops, [
      'Close',
      'Share link',
      'Copy to clipboard',
      'Open',
      'Done',
      'Close',
      'Done',
      'Open',
    ])
    assert.deepEqual(errors, [])
    await owner.close()

    // A visitor in a fresh browser: the password, the preview of the text file, download all.
    const visitor = await freshContext(browser)
    const view = await visitor.newPage()
    const viewErrors = collectErrors(view)
    await view.goto(link)
    await view.waitForSelector('html[data-hydrated]')
    assert.equal(new URL(view.url()).pathname, `/share/${shareId}`)
    const passwordModal = dialogByTitle(view, 'Password required')
    await passwordModal.getByLabel('Password').fill('wrong-password')
    await passwordModal.getByRole('button', { name: 'Unlock' }).click()
    await passwordModal.getByText('Invalid password').waitFor()
    await passwordModal.getByLabel('Password').fill(password)
    await passwordModal.getByRole('button', { name: 'Unlock' }).click()
    await passwordModal.waitFor({ state: 'hidden' })

    await view.getByRole('button', { name: 'Preview notes.txt' }).click()
    const preview = dialogByTitle(view, 'notes.txt')
    assert.equal(await preview.getByTestId('text-preview').textContent(), text)
    await preview.getByRole('button', { name: 'Close' }).first().click()
    await preview.waitFor({ state: 'hidden' })

    const [download] = await Promise.all([
      view.waitForEvent('download'),
      view.getByRole('button', { name: 'Download all' }).click(),
    ])
    assert.equal(download.suggestedFilename(), `${shareId}.zip`)
    const entries = await unzip(await readFile((await download.path())!))
    assert.sameMembers(Object.keys(entries), ['notes.txt', 'data.bin'])
    assert.equal(entries['notes.txt'].bytes.toString('utf8'), text)
    assert.isTrue(entries['data.bin'].bytes.equals(binary))
    assert.deepEqual(viewErrors, [])
    await visitor.close()
  }).timeout(120_000)

  test('a visitor is warned, a chunk lost on the network is retried with the notice, and the share still completes', async ({
    browser,
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    await setConfig('share.maxExpiration', '0 days')
    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    // The first two attempts of chunk 1 never reach the server.
    let dropped = 0
    await page.route(/\/api\/shares\/[^/]+\/files\?/, async (route) => {
      const url = new URL(route.request().url())
      if (url.searchParams.get('chunkIndex') === '1' && dropped < 2) {
        dropped++
        return route.abort('connectionreset')
      }
      return route.continue()
    })
    await page.goto('/upload')
    await page.waitForSelector('html[data-hydrated]')
    const content = randomBytes(CHUNK * 2 + 10)
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: 'flaky.bin', mimeType: 'application/octet-stream', buffer: content }])
    await page.getByRole('button', { name: 'Share', exact: true }).click()

    const modal = dialogByTitle(page, 'Share')
    await modal
      .getByText(
        'You are not signed in. You will not be able to delete your share manually or see how many people visited it.'
      )
      .waitFor()
    await modal.getByText('Never expires').click()
    await modal.getByText('This share will never expire.').waitFor()
    const shareId = await modal.getByLabel('Link', { exact: true }).inputValue()
    await modal.getByRole('button', { name: 'Share', exact: true }).click()

    await page.getByText('1 file failed to upload. Trying again.').waitFor()
    const ready = dialogByTitle(page, 'Share ready')
    await ready.waitFor({ timeout: 30_000 })
    assert.equal(dropped, 2)
    assert.equal(
      await ready.getByTestId('share-expiration').textContent(),
      'This share will never expire.'
    )
    assert.equal(await ready.getByLabel('Share link').inputValue(), `${baseUrl()}/s/${shareId}`)

    // The stored file is whole: no chunk lost, none doubled.
    const zip = await fetch(`${baseUrl()}/api/shares/${shareId}/files/zip`)
    assert.equal(zip.status, 200)
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()))
    assert.isTrue(entries['flaky.bin'].bytes.equals(content))
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('a chosen folder keeps its structure: files are named by their path and the zip recreates the folders', async ({
    browser,
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const root = await mkdtemp(join(tmpdir(), 'tern-folder-'))
    try {
      await mkdir(join(root, 'docs', 'sub'), { recursive: true })
      await writeFile(join(root, 'docs', 'a.txt'), 'alpha')
      await writeFile(join(root, 'docs', 'sub', 'a.txt'), 'beta')
      const context = await freshContext(browser)
      const page = await context.newPage()
      const errors = collectErrors(page)
      await page.goto('/upload')
      await page.waitForSelector('html[data-hydrated]')

      await page.getByTestId('folder-input').setInputFiles(join(root, 'docs'))
      const list = page.getByTestId('upload-file-list')
      await list.getByText('docs/a.txt', { exact: true }).waitFor()
      await list.getByText('docs/sub/a.txt', { exact: true }).waitFor()
      await page.getByRole('button', { name: 'Share', exact: true }).click()
      const modal = dialogByTitle(page, 'Share')
      const shareId = await modal.getByLabel('Link', { exact: true }).inputValue()
      await modal.getByRole('button', { name: 'Share', exact: true }).click()
      await dialogByTitle(page, 'Share ready').waitFor({ timeout: 30_000 })

      const zip = await fetch(`${baseUrl()}/api/shares/${shareId}/files/zip`)
      assert.equal(zip.status, 200)
      const entries = await unzip(Buffer.from(await zip.arrayBuffer()))
      assert.sameMembers(Object.keys(entries), ['docs/a.txt', 'docs/sub/a.txt'])
      assert.equal(entries['docs/a.txt'].bytes.toString(), 'alpha')
      assert.equal(entries['docs/sub/a.txt'].bytes.toString(), 'beta')
      assert.deepEqual(errors, [])
      await context.close()
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }).timeout(60_000)

  test('the upload page refuses files over share.maxSize and expirations over share.maxExpiration', async ({
    browser,
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    await setConfig('share.maxSize', '2000')
    await setConfig('share.maxExpiration', '1 days')
    // The recipients field is offered only while sharing by e-mail (and SMTP) is on.
    await setConfig('email.enableShareEmailRecipients', 'true')
    await setConfig('smtp.enabled', 'true')
    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    // Listening from the start: Playwright intercepts file choosers only once a listener exists.
    const chooserEvent = page.waitForEvent('filechooser')
    await page.goto('/upload')
    await page.waitForSelector('html[data-hydrated]')

    await page
      .getByTestId('file-input')
      .setInputFiles([
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2500) },
      ])
    await page
      .getByRole('alert')
      .filter({ hasText: 'Your files exceed the maximum share size of 2 KB.' })
      .waitFor()
    assert.equal(await page.getByTestId('upload-file-list').count(), 0)

    // The drop area works from the keyboard: Enter opens the file picker.
    await page
      .getByRole('button', { name: 'Drop files here or press Enter to choose files' })
      .focus()
    await page.keyboard.press('Enter')
    const chooser = await chooserEvent
    assert.isTrue(chooser.isMultiple())
    await chooser.setFiles([
      { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('small') },
    ])
    await page.getByTestId('upload-file-list').getByText('small.txt').waitFor()
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    const modal = dialogByTitle(page, 'Share')
    await modal.getByLabel('Link', { exact: true }).waitFor()
    assert.equal(await modal.getByText('Never expires').count(), 0)

    const value = modal.getByLabel('Expires after')
    await value.fill('2')
    await modal.getByText(/^Expiration exceeds maximum expiration date of .+\.$/).waitFor()
    await value.fill('1')
    await modal
      .getByText(/^Expiration exceeds maximum expiration date of/)
      .waitFor({ state: 'detached' })
    const recipients = modal.getByRole('combobox', { name: 'Email recipients' })
    await recipients.fill('not-an-address')
    await recipients.press('Enter')
    await modal.getByText('Invalid email address').waitFor()

    // Each opening is a fresh form with a new link and nothing typed before: opened again while it is still closing,
    // and once it has closed.
    const link = () => modal.getByLabel('Link', { exact: true }).inputValue()
    const shareButton = page
      .locator('#main-content')
      .getByRole('button', { name: 'Share', exact: true })
    const links = [await link()]
    await modal.getByRole('button', { name: 'Cancel' }).click()
    // The closing dialog's mask still covers the page: the click is dispatched to the button itself.
    await shareButton.dispatchEvent('click')
    await page.waitForFunction(
      () =>
        !(globalThis as any).document.querySelector(
          '.ant-zoom-appear, .ant-zoom-enter, .ant-zoom-leave'
        )
    )
    links.push(await link())
    assert.equal(await modal.getByText('not-an-address').count(), 0)
    assert.equal(await modal.getByText('Invalid email address').count(), 0)
    await modal.getByRole('button', { name: 'Cancel' }).click()
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('.ant-modal'))
    await shareButton.click()
    links.push(await link())
    for (const shareId of links) assert.match(shareId, /^[A-Za-z0-9]{8}$/)
    assert.lengthOf(new Set(links), 3, `three openings, three links: ${links.join(', ')}`)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)
})
