/**
 * The panel's list pages on phones in Chromium, against
 * the real server: at 360 and 390 px the users (one with a long e-mail
 * address), shares, failed deliveries and webhook deliveries lists show every
 * row whole with its buttons, and like the notification routes and the
 * Pingvin import help have nothing cut off in the page's content (`main`:
 * the panel's sider, header and drawer are checked by
 * phone_admin_shell.spec.ts); at 360 px a user is edited and deleted through
 * clicks, and the create and edit dialogs fit. At 1440 px the lists stay
 * tables, whole.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import type { Browser, Page } from 'playwright'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cutOff } from '#tests/helpers/layout'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  shareUser,
} from '#tests/helpers/shares'

/** What is checked: the page's content, below the panel's header. */
const CONTENT = 'main'

const LONG_EMAIL = 'a.very.long.administrator.address@subdomain.example.com'
const HOOK_URL = 'https://hooks.example.com/a/very/long/path/to/the/receiver'

/** A delivery that failed after every attempt, straight into the outbox (the worker leaves failed rows alone). */
async function failedDelivery(channel: string, target: string) {
  const now = Date.now()
  await db.table('notification_deliveries').insert({
    id: randomUUID(),
    dedupe_key: randomUUID().replaceAll('-', ''),
    event_id: randomUUID(),
    event_type: 'share.created',
    channel,
    target,
    payload: '{}',
    status: 'failed',
    attempts: 6,
    max_attempts: 6,
    next_attempt_at: now,
    last_error: 'HTTP 410 Gone: the hook was removed by its owner a while ago',
    created_at: now,
    updated_at: now,
  })
}

/** A signed-in page of `width` px. */
async function phonePage(browser: Browser, cookie: string, width: number) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width, height: 800 } })
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
  ])
  const page = await context.newPage()
  return { context, page, errors: collectErrors(page) }
}

/** Opens `path` of the panel and waits for the row holding `text` in the table `testId`. */
async function openList(page: Page, path: string, testId: string, text: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 120_000 })
  await page.waitForSelector('html[data-hydrated]', { timeout: 120_000 })
  const row = page.getByTestId(testId).locator('tbody tr.ant-table-row').filter({ hasText: text })
  await row.first().waitFor({ timeout: 60_000 })
  return row
}

/** Whether `name`'s button of `row` lies inside the viewport. */
async function buttonOnScreen(page: Page, row: ReturnType<Page['locator']>, name: string) {
  const box = await row.getByRole('button', { name }).boundingBox()
  const width = page.viewportSize()!.width
  return box !== null && box.x >= 0 && box.x + box.width <= width
}

test.group('Admin lists | phones', (group) => {
  group.each.teardown(async () => {
    await db.from('notification_deliveries').delete()
    await cleanupShareTests()
  })

  for (const width of [360, 390, 1440]) {
    test(`users, shares and deliveries are whole at ${width} px`, async ({ browser, assert }) => {
      const { user: admin, cookie } = await shareUser({ admin: true, email: LONG_EMAIL })
      const { user: other } = await shareUser()
      const share = await createCompletedShare({
        cookie,
        id: newShareId('phone'),
        name: 'Quarterly report, long name',
        files: { 'a.txt': 'a' },
      })
      await failedDelivery('webhook', HOOK_URL)
      await failedDelivery('email', 'someone@example.com')
      const { context, page, errors } = await phonePage(browser, cookie, width)

      const adminRow = await openList(page, '/admin/users', 'users-table', admin.username)
      await page.assertTextContains(adminRow, LONG_EMAIL)
      assert.deepEqual(await cutOff(page, CONTENT), [])
      for (const username of [admin.username, other.username]) {
        const row = page
          .getByTestId('users-table')
          .locator('tbody tr.ant-table-row')
          .filter({ hasText: username })
        assert.isTrue(
          await buttonOnScreen(page, row, `Edit ${username}`),
          `Edit ${username} on screen`
        )
        assert.isTrue(
          await buttonOnScreen(page, row, `Delete ${username}`),
          `Delete ${username} on screen`
        )
      }
      // The title and the button are on one line.
      const title = await page.getByRole('heading', { name: 'Users' }).boundingBox()
      const create = await page.getByRole('button', { name: 'Create user' }).boundingBox()
      assert.isBelow(Math.abs(title!.y + title!.height / 2 - (create!.y + create!.height / 2)), 4)

      const shareRow = await openList(page, '/admin/shares', 'shares-table', share.id)
      await page.assertTextContains(shareRow, 'Quarterly report, long name')
      assert.deepEqual(await cutOff(page, CONTENT), [])
      assert.isTrue(await buttonOnScreen(page, shareRow, `Delete share ${share.id}`))

      const deliveryRow = await openList(page, '/admin/deliveries', 'deliveries-table', HOOK_URL)
      await page.assertTextContains(deliveryRow, 'the hook was removed by its owner')
      assert.deepEqual(await cutOff(page, CONTENT), [])
      assert.isTrue(
        await buttonOnScreen(
          page,
          deliveryRow,
          `Retry the delivery of share.created to ${HOOK_URL}`
        )
      )

      const hookRow = await openList(
        page,
        '/admin/plugins/webhook/deliveries',
        'webhook-deliveries-table',
        HOOK_URL
      )
      assert.deepEqual(await cutOff(page, CONTENT), [])
      assert.isTrue(
        await buttonOnScreen(page, hookRow, `Discard the delivery of share.created to ${HOOK_URL}`)
      )
      // An empty list (nothing pending) fits too.
      await page.locator('label.ant-radio-button-wrapper').filter({ hasText: 'Pending' }).click()
      await page.getByText('Nothing is waiting to be sent').waitFor()
      assert.deepEqual(await cutOff(page, CONTENT), [])

      // The pages without a table: the notification routes and the Pingvin import help.
      await page.goto('/admin/notifications')
      await page
        .getByRole('button', { name: 'Save notification settings' })
        .waitFor({ timeout: 60_000 })
      assert.deepEqual(await cutOff(page, CONTENT), [])
      await page.goto('/admin/import/pingvin')
      await page.getByTestId('pingvin-import-command').waitFor({ timeout: 60_000 })
      assert.deepEqual(await cutOff(page, CONTENT), [])

      assert.deepEqual(errors, [])
      await context.close()
    }).timeout(300_000)
  }

  test('at 360 px a user is created, edited and deleted through clicks; the dialogs fit', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true, email: LONG_EMAIL })
    const { user: other } = await shareUser()
    const { context, page, errors } = await phonePage(browser, cookie, 360)
    const row = await openList(page, '/admin/users', 'users-table', other.username)

    // Create: the dialog fits; cancelled.
    await page.getByRole('button', { name: 'Create user' }).click()
    const create = dialogByTitle(page, 'Create a user')
    await create.getByLabel('Username').waitFor()
    assert.deepEqual(
      await cutOff(page, '.ant-modal-wrap:not([style*="display: none"]) .ant-modal'),
      []
    )
    await create.getByRole('button', { name: 'Cancel' }).click()
    await create.waitFor({ state: 'hidden' })

    // Edit: a new address, saved.
    await row.getByRole('button', { name: `Edit ${other.username}` }).click()
    const edit = dialogByTitle(page, `Edit ${other.username}`)
    await edit
      .getByLabel('Username')
      .and(page.locator(`[value="${other.username}"]`))
      .waitFor()
    assert.deepEqual(
      await cutOff(page, '.ant-modal-wrap:not([style*="display: none"]) .ant-modal'),
      []
    )
    const email = `renamed-${other.username}@example.com`
    await edit.getByLabel('Email').fill(email)
    await edit.getByRole('button', { name: 'Save' }).click()
    await edit.waitFor({ state: 'hidden' })
    await row.filter({ hasText: email }).waitFor()
    assert.equal((await User.findOrFail(other.id)).email, email)

    // Delete, after the confirmation (which fits too).
    await row.getByRole('button', { name: `Delete ${other.username}` }).click()
    const confirm = page
      .getByRole('tooltip')
      .filter({ hasText: `Delete ${other.username} and all of their shares?` })
    await confirm.waitFor()
    assert.deepEqual(await cutOff(page, '.ant-popover:not(.ant-popover-hidden)'), [])
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await row.waitFor({ state: 'detached' })
    assert.isNull(await User.find(other.id))

    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(300_000)
})
