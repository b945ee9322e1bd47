/**
 * Duplicate file names in the browser: the share edit page says a file of the same
 * name is already in the share before uploading anything (the API would refuse
 * it with 400 `file_name_taken`); the upload page does not list a name twice.
 */
import { test } from '@japa/runner'
import type { BrowserContext } from 'playwright'
import ShareFile from '#models/share_file'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'

/** Signs `context` in with the `name=value` Cookie header of a test user. */
async function signIn(context: BrowserContext, cookie: string) {
  const [name, ...value] = cookie.split('=')
  await context.addCookies([{ name, value: value.join('='), url: baseUrl() }])
}

const text = (name: string, content: string) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(content),
})

test.group('Share files | duplicate names in the browser', (group) => {
  group.each.teardown(() => cleanupShareTests())

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 360, height: 780 },
  ]) {
    test(`the edit page refuses a second notes.txt before uploading (${viewport.width} px)`, async ({
      browser,
      assert,
    }) => {
      const { cookie } = await shareUser()
      const share = await createCompletedShare({ cookie, files: { 'notes.txt': 'first' } })
      const context = await browser.newContext({ viewport })
      await signIn(context, cookie)
      const page = await context.newPage()
      const errors = collectErrors(page, { strict: true })
      await page.goto(`${baseUrl()}/share/${share.id}/edit`)
      await page.waitForSelector('html[data-hydrated]')

      const files = page.getByRole('region', { name: 'Files' })
      await files
        .locator('input[type="file"]')
        .setInputFiles([text('notes.txt', 'second'), text('other.txt', 'other')])
      const alert = files.getByTestId('duplicate-names')
      await alert.waitFor()
      assert.include(
        await alert.innerText(),
        'A file with this name is already in the share: notes.txt.'
      )
      const pending = files.getByTestId('pending-files')
      await pending.getByText('Name already in the share').waitFor()
      const upload = files.getByRole('button', { name: 'Upload 2 files' })
      assert.isTrue(await upload.isDisabled(), 'nothing is uploaded while a name clashes')
      assert.isAtMost(
        await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
        viewport.width
      )

      // Dropping the clashing file from the list lets the other one go.
      await files.getByRole('button', { name: "Don't add notes.txt" }).click()
      await alert.waitFor({ state: 'detached' })
      await files.getByRole('button', { name: 'Upload 1 file' }).click()
      await page.getByText('1 file has been added.').waitFor()
      const stored = await ShareFile.query().where('shareId', share.id).orderBy('name')
      assert.deepEqual(
        stored.map((file) => [file.name, Number(file.size)]),
        [
          ['notes.txt', 5],
          ['other.txt', 5],
        ]
      )
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  test('the upload page lists a name once and says so', async ({ browser, assert }) => {
    const { cookie } = await shareUser()
    const context = await browser.newContext()
    await signIn(context, cookie)
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/upload`)
    await page.waitForSelector('html[data-hydrated]')
    const input = page.locator('input[type="file"]').first()
    await input.setInputFiles([text('a.txt', 'a')])
    await page.getByText('a.txt', { exact: true }).waitFor()
    await input.setInputFiles([text('a.txt', 'again'), text('b.txt', 'b')])
    await page
      .getByText('A file with this name is already in the list: a.txt. It was not added again.')
      .waitFor()
    await page.getByText('b.txt', { exact: true }).waitFor()
    assert.equal(await page.getByText('a.txt', { exact: true }).count(), 1)
    await context.close()
  })
})
