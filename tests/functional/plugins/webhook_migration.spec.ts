/**
 * The migration that keeps existing webhook installs receiving what they
 * received before routing (database/migrations/1560_route_webhook_lifecycle_events.ts):
 * run against the test database, then a share made through the HTTP API
 * reaches a real receiver on loopback through the routes it created.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import RouteWebhookLifecycleEvents from '#database/migrations/1560_route_webhook_lifecycle_events'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  cleanupShareTests,
  createShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { startWebhookReceiver } from '#tests/helpers/webhook_receiver'
import { clearWebhookRoutes, WEBHOOK_LIFECYCLE_EVENTS } from '#tests/helpers/webhook_routes'

/** Runs the migration's `up` (or `down`) once. */
async function migrate(direction: 'up' | 'down' = 'up') {
  const migration = new RouteWebhookLifecycleEvents(
    db.connection(),
    '1560_route_webhook_lifecycle_events.ts',
    false
  )
  if (direction === 'up') await migration.execUp()
  else await migration.execDown()
}

/** The instance routes, as [event, channel] sorted. */
async function instanceRoutes() {
  const rows = await db.from('notification_routes').whereNull('user_id').select('event', 'channel')
  return rows.map((row) => `${row.event} -> ${row.channel}`).sort()
}

test.group('Plugins | webhook routes migration', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(async () => {
    await db.from('notification_routes').whereNull('user_id').delete()
    await ConfigVariable.query()
      .whereIn('key', ['webhook.enabled', 'webhook.urls'])
      .update({ value: null })
    await cleanupShareTests()
    await (await app.container.make('webhook.dispatcher')).idle()
    await db.from('notification_deliveries').delete()
  })

  test('an install with a webhook URL gets instance routes of the six lifecycle events, and they deliver', async ({
    assert,
  }) => {
    const receiver = await startWebhookReceiver()
    try {
      await setConfig('webhook.enabled', 'true')
      await setConfig('webhook.urls', receiver.url)
      await clearWebhookRoutes()
      await migrate()
      assert.deepEqual(
        await instanceRoutes(),
        WEBHOOK_LIFECYCLE_EVENTS.map((event) => `${event} -> webhook`).sort()
      )

      const owner = await shareUser()
      const created = await createShare(owner.cookie, { id: newShareId() })
      const [request] = await receiver.waitFor(1)
      assert.equal(request.json.event, 'share.created')
      assert.equal(request.json.data.shareId, created.json.id)
    } finally {
      await receiver.close()
    }
  })

  test('routes already there are kept, nothing is doubled; down removes the lifecycle routes to webhook only', async ({
    assert,
  }) => {
    await setConfig('webhook.urls', 'https://hooks.example.com/tern')
    await clearWebhookRoutes()
    await db.table('notification_routes').insert([
      {
        user_id: null,
        event: 'share.created',
        channel: 'webhook',
        locale: null,
        created_at: '2026-01-01 00:00:00',
      },
      {
        user_id: null,
        event: 'user.invited',
        channel: 'webhook',
        locale: null,
        created_at: '2026-01-01 00:00:00',
      },
    ])
    await migrate()
    await migrate()
    const routes = await instanceRoutes()
    assert.deepEqual(
      routes,
      [...WEBHOOK_LIFECYCLE_EVENTS, 'user.invited'].map((event) => `${event} -> webhook`).sort()
    )

    await migrate('down')
    assert.deepEqual(await instanceRoutes(), ['user.invited -> webhook'])
  })

  test('an install without a webhook URL gets no route', async ({ assert }) => {
    await setConfig('webhook.enabled', 'true')
    await setConfig('webhook.urls', '  \n ')
    await clearWebhookRoutes()
    await migrate()
    assert.deepEqual(await instanceRoutes(), [])
    await setConfig('webhook.urls', null)
    await migrate()
    assert.deepEqual(await instanceRoutes(), [])
  })
})
