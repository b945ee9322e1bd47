/**
 * The outbox table `notification_deliveries`: enqueue, claim with a lease,
 * renew the lease while the attempt runs, settle. Every state change is one
 * conditional UPDATE on the claim's own token, so any number of instances (or
 * a crashed one whose lease ran out) can work the same table on SQLite, MySQL
 * and PostgreSQL without delivering a row twice at the same time, and a holder
 * whose lease was taken over can neither renew nor settle the row.
 */
import { createHash, randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { OutboxDelivery } from '#extensions/outbox/main'

/** The table of the outbox. */
export const OUTBOX_TABLE = 'notification_deliveries'

// A delivery's shape is part of the contract plugins see (#extensions/outbox/main); defined there once.
export type { OutboxDelivery, OutboxDeliveryStatus } from '#extensions/outbox/main'

/** What `enqueue` needs. */
export interface EnqueueInput {
  /** The event's id: the same event enqueued twice on a channel and target is kept once. */
  eventId: string
  /** e.g. `share:created`, `auth:password_reset`. */
  eventType: string
  channel: string
  target?: string
  payload: unknown
  maxAttempts: number
  /** The transaction of the change that caused the event, when there is one. */
  client?: QueryClientContract
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/** A row of the table as an `OutboxDelivery`. */
export function toDelivery(row: Record<string, any>): OutboxDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    channel: row.channel,
    target: row.target ?? '',
    payload: row.payload ? JSON.parse(row.payload) : null,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    deliveredAt: num(row.delivered_at),
  }
}

/** The unique key of one delivery. */
export function dedupeKey(eventId: string, channel: string, target: string): string {
  return createHash('sha256')
    .update(JSON.stringify([eventId, channel, target]))
    .digest('hex')
}

/**
 * Inserts a pending delivery, due now. Resolves to its id, or null when the
 * same (event, channel, target) was enqueued before (nothing is inserted).
 */
export async function insertDelivery(input: EnqueueInput): Promise<string | null> {
  const client = input.client ?? db.connection()
  const target = input.target ?? ''
  const now = Date.now()
  const id = randomUUID()
  await client
    .knexQuery()
    .table(OUTBOX_TABLE)
    .insert({
      id,
      dedupe_key: dedupeKey(input.eventId, input.channel, target),
      event_id: input.eventId.slice(0, 191),
      event_type: input.eventType.slice(0, 100),
      channel: input.channel,
      target: target.slice(0, 512),
      payload: JSON.stringify(input.payload ?? null),
      status: 'pending',
      attempts: 0,
      max_attempts: Math.max(1, input.maxAttempts),
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict('dedupe_key')
    .ignore()
  // Drivers report an ignored insert differently: ask whether our row is there.
  const row = await client.from(OUTBOX_TABLE).where('id', id).select('id').first()
  return row ? id : null
}

/** Affected rows of an UPDATE, whatever the driver returns. */
function affectedRows(result: unknown): number {
  return Number(Array.isArray(result) ? result[0] : result) || 0
}

/** A claimed delivery and the token that holds it (`locked_by`, new at every claim). */
export interface Claim {
  delivery: OutboxDelivery
  token: string
}

/**
 * Claims up to `limit` due deliveries of `channels` for `workerId` until
 * `now + leaseMs`: each candidate is taken by a conditional UPDATE that only
 * one worker can win; the attempt counter grows on claim, so a delivery that
 * crashes its worker every time still ends as failed. Each claim gets a token
 * of its own (`<workerId>/<random>`), so even the same worker taking a row
 * again cannot settle it with an older claim. Rows in `busy` (attempts still
 * running in this worker, whose claim may have been lost) are left alone.
 */
export async function claimDue(
  channels: readonly string[],
  workerId: string,
  leaseMs: number,
  limit: number,
  busy: readonly string[] = []
): Promise<Claim[]> {
  if (channels.length === 0) return []
  const now = Date.now()
  const due = (query: any) =>
    query
      .where('status', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((free: any) => free.whereNull('locked_until').orWhere('locked_until', '<=', now))
  const query = due(db.from(OUTBOX_TABLE).whereIn('channel', [...channels]))
  if (busy.length > 0) query.whereNotIn('id', [...busy])
  const candidates = await query.orderBy('next_attempt_at', 'asc').limit(limit).select('id')
  const tokens = new Map<string, string>()
  for (const { id } of candidates) {
    const token = `${workerId.slice(0, 54)}/${randomUUID().slice(0, 8)}`
    const result = await due(db.from(OUTBOX_TABLE).where('id', id)).update({
      locked_by: token,
      locked_until: now + leaseMs,
      attempts: db.raw('attempts + 1'),
      updated_at: now,
    })
    if (affectedRows(result) === 1) tokens.set(id, token)
  }
  if (tokens.size === 0) return []
  const rows = await db.from(OUTBOX_TABLE).whereIn('id', [...tokens.keys()])
  return rows
    .filter((row) => row.locked_by === tokens.get(row.id))
    .map((row) => ({ delivery: toDelivery(row), token: row.locked_by }))
}

/**
 * Extends the lease of a claim to `now + leaseMs` (the heartbeat of a running
 * attempt). False when the claim is gone: another worker took the row after
 * the lease ran out, or it is no longer pending.
 */
export async function renewClaim(id: string, token: string, leaseMs: number): Promise<boolean> {
  const result = await db
    .from(OUTBOX_TABLE)
    .where({ id, locked_by: token, status: 'pending' })
    .update({ locked_until: Date.now() + leaseMs })
  return affectedRows(result) === 1
}

/** Marks a claimed delivery delivered (and forgets its payload). False when the claim was lost. */
export async function markDelivered(id: string, token: string): Promise<boolean> {
  const now = Date.now()
  const result = await db
    .from(OUTBOX_TABLE)
    .where({ id, locked_by: token, status: 'pending' })
    .update({
      status: 'delivered',
      payload: null,
      delivered_at: now,
      locked_until: null,
      updated_at: now,
    })
  return affectedRows(result) === 1
}

/**
 * Records a failed attempt of a claimed delivery: pending again at
 * `retryAt`, or failed when `retryAt` is null. False when the claim was lost.
 */
export async function markAttemptFailed(
  id: string,
  token: string,
  error: string,
  retryAt: number | null
) {
  const now = Date.now()
  const result = await db
    .from(OUTBOX_TABLE)
    .where({ id, locked_by: token, status: 'pending' })
    .update({
      status: retryAt === null ? 'failed' : 'pending',
      next_attempt_at: retryAt ?? now,
      locked_until: null,
      last_error: error,
      updated_at: now,
    })
  return affectedRows(result) === 1
}

/** Deletes deliveries delivered before `before` (ms); resolves to how many. */
export async function purgeDelivered(before: number): Promise<number> {
  const deleted = await db
    .from(OUTBOX_TABLE)
    .where('status', 'delivered')
    .where('delivered_at', '<', before)
    .delete()
  return Number(Array.isArray(deleted) ? deleted[0] : deleted) || 0
}
