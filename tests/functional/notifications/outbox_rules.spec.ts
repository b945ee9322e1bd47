/**
 * The outbox's rules on the run's real database: concurrent claims never
 * share a row, a lapsed lease is taken over (and the old holder can no
 * longer renew or settle it, even when it is the same worker), old
 * delivered rows are purged; the back-off and the redaction of stored errors.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { outboxRetryDelay } from '#services/outbox/backoff'
import app from '@adonisjs/core/services/app'
import OutboxService from '#services/outbox/outbox_service'
import {
  claimDue,
  markAttemptFailed,
  markDelivered,
  OUTBOX_TABLE,
  purgeDelivered,
  renewClaim,
} from '#services/outbox/outbox_store'
import { KEEP_DELIVERED_MS } from '#services/outbox/outbox_worker'
import { redactDeliveryError } from '#services/outbox/redact'
import { cleanCommittedData } from '#tests/helpers/clean_database'

const outbox = await app.container.make(OutboxService)

/** A channel no handler of this process works, so only the test claims its rows. */
const LANE = 'rules-lane'

test.group('Notifications | outbox claims', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(async () => {
    await db.from(OUTBOX_TABLE).where('channel', LANE).delete()
  })

  async function enqueueMany(count: number) {
    for (let n = 0; n < count; n++) {
      await outbox.enqueue({
        eventId: `race-${n}`,
        eventType: 'share:created',
        channel: LANE,
        payload: { n },
      })
    }
  }

  test('parallel claims by several workers never take the same row', async ({ assert }) => {
    await enqueueMany(40)
    const claims = await Promise.all(
      [1, 2, 3, 4, 5].map((worker) => claimDue([LANE], `worker-${worker}`, 60_000, 40))
    )
    const ids = claims.flat().map((claim) => claim.delivery.id)
    assert.lengthOf(ids, 40, 'every row claimed')
    assert.lengthOf(new Set(ids), 40, 'no row claimed twice')
    assert.deepEqual(
      await claimDue([LANE], 'worker-late', 60_000, 40),
      [],
      'nothing left while the leases run'
    )
    const rows = await db.from(OUTBOX_TABLE).where('channel', LANE)
    assert.isTrue(rows.every((row) => Number(row.attempts) === 1))
  })

  test('a lapsed lease is taken over; the old holder can no longer renew or settle the row', async ({
    assert,
  }) => {
    await enqueueMany(1)
    const [first] = await claimDue([LANE], 'crashed', 60_000, 10)
    assert.equal(first.delivery.attempts, 1)
    const id = first.delivery.id
    // The crashed worker's lease ends (as if its 60 s had passed).
    await db
      .from(OUTBOX_TABLE)
      .where('id', id)
      .update({ locked_until: Date.now() - 1 })

    const [taken] = await claimDue([LANE], 'survivor', 60_000, 10)
    assert.equal(taken.delivery.id, id)
    assert.equal(taken.delivery.attempts, 2)
    assert.isFalse(await renewClaim(id, first.token, 60_000), 'the old holder cannot renew')
    assert.isFalse(await markDelivered(id, first.token))
    assert.isTrue(await renewClaim(id, taken.token, 60_000))
    assert.isTrue(await markDelivered(id, taken.token))
    const row = await db.from(OUTBOX_TABLE).where('id', id).first()
    assert.containsSubset(row, { status: 'delivered', payload: null, locked_by: taken.token })
  })

  test('a worker that claims a row again holds it with a new token; its older claim cannot settle it', async ({
    assert,
  }) => {
    await enqueueMany(1)
    const [older] = await claimDue([LANE], 'same-worker', 60_000, 10)
    await db
      .from(OUTBOX_TABLE)
      .where('id', older.delivery.id)
      .update({ locked_until: Date.now() - 1 })
    assert.deepEqual(
      await claimDue([LANE], 'same-worker', 60_000, 10, [older.delivery.id]),
      [],
      'not while its attempt runs here'
    )
    const [newer] = await claimDue([LANE], 'same-worker', 60_000, 10)
    assert.notEqual(newer.token, older.token)
    assert.isFalse(await markAttemptFailed(older.delivery.id, older.token, 'late', null))
    assert.isTrue(await markDelivered(newer.delivery.id, newer.token))
  })

  test('rows of channels without a handler here, and rows not yet due, are left alone', async ({
    assert,
  }) => {
    await enqueueMany(2)
    await db
      .from(OUTBOX_TABLE)
      .where('event_id', 'race-1')
      .update({ next_attempt_at: Date.now() + 60_000 })
    assert.deepEqual(await claimDue(['another-lane'], 'w', 60_000, 10), [])
    const claimed = await claimDue([LANE], 'w', 60_000, 10)
    assert.deepEqual(
      claimed.map((claim) => claim.delivery.eventId),
      ['race-0']
    )
  })

  test('delivered rows older than the retention are purged, newer ones kept', async ({
    assert,
  }) => {
    await enqueueMany(2)
    const now = Date.now()
    await db
      .from(OUTBOX_TABLE)
      .where('channel', LANE)
      .update({ status: 'delivered', delivered_at: now })
    await db
      .from(OUTBOX_TABLE)
      .where('event_id', 'race-0')
      .update({ delivered_at: now - KEEP_DELIVERED_MS - 1000 })
    assert.isAtLeast(await purgeDelivered(now - KEEP_DELIVERED_MS), 1)
    const left = await db.from(OUTBOX_TABLE).where('channel', LANE).select('event_id')
    assert.deepEqual(
      left.map((row) => row.event_id),
      ['race-1']
    )
  })
})

test.group('Notifications | outbox back-off and redaction', () => {
  test('waits grow exponentially with jitter, at least Retry-After, capped', ({ assert }) => {
    const policy = { baseDelayMs: 1000, maxDelayMs: 60_000 }
    assert.equal(
      outboxRetryDelay(1, policy, null, () => 0),
      500
    )
    assert.equal(
      outboxRetryDelay(1, policy, null, () => 1),
      1000
    )
    assert.equal(
      outboxRetryDelay(3, policy, null, () => 0.5),
      3000
    )
    assert.equal(
      outboxRetryDelay(20, policy, null, () => 1),
      60_000
    )
    assert.equal(
      outboxRetryDelay(1, policy, 5000, () => 0),
      5000
    )
    assert.equal(
      outboxRetryDelay(1, policy, 120_000, () => 0),
      60_000
    )
    const waits = Array.from({ length: 50 }, () => outboxRetryDelay(4, policy))
    assert.isTrue(waits.every((wait) => wait >= 4000 && wait <= 8000))
    assert.isAbove(new Set(waits).size, 1, 'jittered')
  })

  test('stored errors lose secrets, URL queries and token-like path segments', ({ assert }) => {
    const reset = 'https://tern.example/auth/resetPassword/Zk3vQ0r9xW2yLmNp4sTuVb7c?lang=en'
    assert.equal(
      redactDeliveryError(`bounced: ${reset} (key s3cr3t-key)`, ['s3cr3t-key', '']),
      'bounced: https://tern.example/auth/resetPassword/[redacted]?[redacted] (key [redacted])'
    )
    assert.equal(
      redactDeliveryError('connect ECONNREFUSED 127.0.0.1:2525'),
      'connect ECONNREFUSED 127.0.0.1:2525'
    )
    assert.lengthOf(redactDeliveryError('x'.repeat(5000)), 1000)
  })
})
