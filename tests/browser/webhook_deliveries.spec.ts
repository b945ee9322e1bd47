/**
 * The webhook plugin's admin page ("Webhook deliveries", contributed through
 * the admin-panel extension point) in Chromium, against the real server: a
 * share event routed to webhook is refused by a real receiver, the admin
 * finds the failed delivery through the menu with its error, retries it (the
 * receiver gets it again) and sees it delivered.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { clearWebhookRoutes, routeToWebhook } from '#tests/helpers/webhook_routes'

const configService = await app.container.make(ConfigService)

const PASSWORD = 'correct horse battery'
const WEBHOOK_KEYS = ['webhook.enabled', 'webhook.urls', 'webhook.secret', 'webhook.maxAttempts']

test.group('Admin panel | webhook deliveries (webhook plugin)', (group) => {
  let receiver: WebhookReceiver

  group.each.setup(async () => {
    // A confirmed public address: admins signing in go straight on (no address step, inertia/components/auth/address_step.tsx).
    await setConfig('general.appUrl', baseUrl())
    receiver = await startWebhookReceiver()
    return async () => {
      await receiver.close()
      await (await app.container.make('webhook.dispatcher')).idle().catch(() => {})
      await db.from('notification_deliveries').delete()
      await ConfigVariable.query().whereIn('key', WEBHOOK_KEYS).update({ value: null })
      await clearWebhookRoutes()
      await cleanupShareTests()
    }
  })

  test('an admin sees a failed webhook delivery with its error and retries it', async ({
    browser,
    assert,
  }) => {
    receiver.reply({ status: 410, body: 'hook removed' })
    await configService.update([
      { key: 'webhook.enabled', value: true },
      { key: 'webhook.urls', value: receiver.url },
      { key: 'webhook.secret', value: 'browser-secret' },
      { key: 'webhook.maxAttempts', value: 3 },
    ])
    await routeToWebhook(['share.created'])
    const owner = await shareUser()
    const shareId = newShareId()
    await createShare(owner.cookie, { id: shareId })
    await (await app.container.make('webhook.dispatcher')).idle()
    assert.lengthOf(receiver.received, 1)

    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const context = await browser.newContext({ baseURL: baseUrl() })
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/auth/signIn?redirect=/admin', {
      waitUntil: 'domcontentloaded',
      timeout: 90_000,
    })
    await page.waitForSelector('html[data-hydrated]', { timeout: 90_000 })
    await page.getByLabel('Email or username').fill(admin.username)
    await page.getByLabel('Password').fill(PASSWORD)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/admin'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ])

    // The plugin's menu entry leads to its page.
    const menu = page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Webhook deliveries' })
    await menu.click()
    await page.waitForURL((url) => url.pathname === '/admin/plugins/webhook/deliveries')
    await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor()

    const table = page.getByTestId('webhook-deliveries-table')
    const rows = table.locator('tbody tr.ant-table-row')
    const row = rows.filter({ hasText: receiver.url })
    await row.waitFor()
    assert.equal(await rows.count(), 1, 'only the request to the URL failed')
    await page.assertTextContains(row, 'share.created')
    await page.assertTextContains(row, 'Failed')
    await page.assertTextContains(row, '1 / 3')
    await page.assertTextContains(row, 'HTTP 410 Gone: hook removed')

    // Retry: the receiver (now answering 200) gets the same delivery again, and it leaves the failed list.
    await row
      .getByRole('button', { name: `Retry the delivery of share.created to ${receiver.url}` })
      .click()
    await page.getByText('The delivery is queued again').waitFor()
    const [first, again] = await receiver.waitFor(2)
    assert.equal(again.json.id, first.json.id)
    assert.equal(again.json.data.shareId, shareId)
    await page.getByText('No failed webhook deliveries').waitFor()

    // Delivered: the routed event and the request to the URL.
    await (await app.container.make('webhook.dispatcher')).idle()
    // antd's button-style radios hide the input: click its label.
    await page.locator('label.ant-radio-button-wrapper').filter({ hasText: 'Delivered' }).click()
    assert.isTrue(await page.getByRole('radio', { name: 'Delivered' }).isChecked())
    const delivered = rows
    await delivered.filter({ hasText: receiver.url }).waitFor()
    await page.assertTextContains(delivered.filter({ hasText: receiver.url }), 'Delivered')
    await delivered.filter({ hasText: 'Every configured URL' }).waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(180_000)
})
