/**
 * Readiness checks of /api/health/ready: each dependency a
 * request may need is tried for real, with a time limit, so an orchestrator
 * takes the instance out of rotation while one of them fails and the answer
 * says which. Liveness (/api/health/live) checks none of them on purpose: a
 * database outage must not make the orchestrator restart every instance.
 */
import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { storage } from '#extensions/storage/main'
import { redisInUse } from '#services/system/redis_outage'
import { pendingMigrations } from '#services/system/schema_status'
import type { HealthCheckResult, HealthChecks } from '#api/system'

/** How long one check may take before it counts as failed. */
export const READINESS_CHECK_TIMEOUT_MS = 2000

/** The state of one check, as answered. */
export type CheckResult = HealthCheckResult

/** The outcome of the readiness checks (`HealthTransformer` makes the answer of it). */
export interface Readiness {
  ready: boolean
  checks: HealthChecks
}

/** Rejects when `work` does not settle within the time limit. */
async function withTimeout(work: () => Promise<unknown>, label: string) {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${label} did not answer in time`)),
      READINESS_CHECK_TIMEOUT_MS
    )
  })
  try {
    await Promise.race([work(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Runs one check; `failure` is the message answered when it fails. */
async function check(work: () => Promise<unknown>, failure: string): Promise<CheckResult> {
  const started = performance.now()
  try {
    await withTimeout(work, failure)
    return { status: 'ok', durationMs: Math.round(performance.now() - started) }
  } catch (error) {
    logger.warn({ err: error }, 'readiness: %s', failure)
    return {
      status: 'failed',
      message: failure,
      durationMs: Math.round(performance.now() - started),
    }
  }
}

/** Resolves when Redis answers PING. */
async function pingRedis() {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  await redis.connection().ping()
}

/**
 * Writes, reads back and deletes a small object on the default disk, so a
 * full, read-only or unreachable store (a lost mount, wrong S3 credentials)
 * shows before uploads fail.
 */
async function probeStorage() {
  const disk = storage.use(await storage.resolveDefault())
  const key = `.tern-health/${randomUUID()}`
  const body = `tern readiness ${key}`
  await disk.put(key, body)
  try {
    if ((await disk.get(key)) !== body) throw new Error('storage answered other bytes than written')
  } finally {
    await disk.delete(key)
  }
}

/** Fails while migrations this build ships are not applied yet (a separate migration step still running). */
async function schemaCurrent() {
  const pending = await pendingMigrations()
  if (pending.length > 0)
    throw new Error(`${pending.length} migrations pending, e.g. ${pending[0]}`)
}

/** The dependency checks of the health routes. */
@inject()
export default class ReadinessService {
  /** Runs every check (in parallel) and tells whether the instance is ready. */
  async check(): Promise<Readiness> {
    const skipped: CheckResult = { status: 'skipped', durationMs: 0 }
    const [database, migrations, redis, store] = await Promise.all([
      check(() => db.rawQuery('SELECT 1'), 'The database does not answer'),
      check(schemaCurrent, 'The database schema is not migrated yet (run node ace tern:migrate)'),
      redisInUse() ? check(pingRedis, 'Redis does not answer') : Promise.resolve(skipped),
      check(probeStorage, 'The default storage cannot write, read and delete a small object'),
    ])
    const checks = { database, migrations, redis, storage: store }
    return { ready: Object.values(checks).every((c) => c.status !== 'failed'), checks }
  }

  /** Resolves when Redis answers PING within `READINESS_CHECK_TIMEOUT_MS`; rejects otherwise. */
  async pingRedis(): Promise<void> {
    await withTimeout(pingRedis, 'Redis PING')
  }

  /** Resolves when the database answers `SELECT 1`; rejects otherwise. */
  async pingDatabase(): Promise<void> {
    await db.rawQuery('SELECT 1')
  }
}
