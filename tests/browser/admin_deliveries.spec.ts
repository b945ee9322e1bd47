/**
 * The panel's "Failed deliveries" page in Chromium, against the real server:
 * webhooks refused by a real receiver are listed with their last error; one
 * is retried (the receiver then gets it again), the other discarded after
 * the confirmation.
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
const WEBHOOK_KEYS = ['webhook.enabled', 'webhook.urls', 'webhook.secret']

test.group('Admin panel | failed deliveries', (group) => {
  let receiver: WebhookReceiver

  group.each.setup(async () => {
    // A confirmed public address: admins signing in go straight on (no address step, inertia/components/auth/address_step.tsx).
    await setConfig('general.appUrl', baseUrl())
    receiver = await startWebhookReceiver()
    return async () => {
      await receiver.close()
      await db.from('notification_deliveries').delete()
      await ConfigVariable.query().whereIn('key', WEBHOOK_KEYS).update({ value: null })
      await clearWebhookRoutes()
      await cleanupShareTests()
    }
  })

  test('lists refused webhooks with their error; retry and discard', async ({
    browser,
    assert,
  }) => {
    receiver.reply({ status: 400, body: 'unknown hook' }, { status: 400, body: 'unknown hook' })
    await configService.update([
      { key: 'webhook.enabled', value: true },
      { key: 'webhook.urls', value: receiver.url },
      { key: 'webhook.secret', value: 'browser-secret' },
    ])
    await routeToWebhook(['share.created'])
    const owner = await shareUser()
    await createShare(owner.cookie, { id: newShareId() })
    await createShare(owner.cookie, { id: newShareId() })
    await (await app.container.make('webhook.dispatcher')).idle()

    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const context = await browser.newContext({ baseURL: baseUrl() })
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/auth/signIn?redirect=/admin/deliveries', {
      waitUntil: 'domcontentloaded',
      timeout: 90_000,
    })
    await page.waitForSelector('html[data-hydrated]', { timeout: 90_000 })
    await page.getByLabel('Email or username').fill(admin.username)
    await page.getByLabel('Password').fill(PASSWORD)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/admin/deliveries'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ])
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Failed deliveries' })
      .waitFor()

    const rows = page
      .getByTestId('deliveries-table')
      .locator('tbody tr')
      .filter({ hasText: 'share.created' })
    await rows.nth(1).waitFor()
    assert.equal(await rows.count(), 2)
    await page.assertTextContains(rows.first(), 'HTTP 400 Bad Request: unknown hook')
    await page.assertTextContains(rows.first(), '1 / 5')

    // Retry the first: the receiver (now answering 200) gets it again, and it leaves the list.
    const retryName = `Retry the delivery of share.created to ${receiver.url}`
    await rows.first().getByRole('button', { name: retryName }).click()
    await receiver.waitFor(3)
    await page.getByText('The delivery is queued again').waitFor()
    await rows.nth(1).waitFor({ state: 'detached' })
    assert.lengthOf(
      receiver.received.filter((request) => request.reply === 200),
      1
    )

    // Discard the other, after the confirmation.
    await rows
      .first()
      .getByRole('button', { name: `Discard the delivery of share.created to ${receiver.url}` })
      .click()
    await page
      .getByRole('tooltip')
      .getByText('Discard this delivery? It will never be sent.')
      .waitFor()
    await page.getByRole('tooltip').getByRole('button', { name: 'Discard' }).click()
    await page.getByText('No failed deliveries').waitFor()
    assert.lengthOf(receiver.received, 3)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(120_000)
})
