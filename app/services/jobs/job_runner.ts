/**
 * Runs the cleanup jobs under a lock (@adonisjs/lock: database store, or
 * Redis when configured), so with several instances only one runs each job
 * at a time; the others skip their turn.
 */
import app from '@adonisjs/core/services/app'
import lock from '@adonisjs/lock/services/main'
import AuthTokenCleanup from '#services/auth/token_cleanup'
import {
  cleanupExpiredReverseShares,
  cleanupExpiredShares,
  cleanupOrphanedUploads,
  cleanupUnfinishedShares,
} from '#services/jobs/cleanup_jobs'
import UploadFinalisation from '#services/files/upload_finalisation'
import { jobRuns } from '#services/system/metrics'

/** The jobs by name, with how often they run (ms). */
export const JOBS = {
  expiredShares: { run: () => cleanupExpiredShares(), every: 5 * 60_000 },
  expiredReverseShares: { run: () => cleanupExpiredReverseShares(), every: 60 * 60_000 },
  unfinishedShares: { run: () => cleanupUnfinishedShares(), every: 60 * 60_000 },
  orphanedUploads: { run: () => cleanupOrphanedUploads(), every: 60 * 60_000 },
  stalledUploads: { run: async () => (await app.container.make(UploadFinalisation)).resumeStalled(), every: 60_000 },
  expiredAuthTokens: { run: async () => (await app.container.make(AuthTokenCleanup)).purgeExpired(), every: 60 * 60_000 },
} as const

/** A job name. */
export type JobName = keyof typeof JOBS

/**
 * Runs job `name` if no instance holds its lock (the lock expires after 30
 * minutes should an instance die while running it). Resolves to whether it ran.
 */
export async function runJob(name: JobName): Promise<boolean> {
  try {
    const [ran] = await lock.createLock(`tern:jobs:${name}`, '30m').runImmediately(async () => {
      await JOBS[name].run()
    })
    jobRuns.inc({ job: name, result: ran ? 'ran' : 'skipped' })
    return ran
  } catch (error) {
    jobRuns.inc({ job: name, result: 'failed' })
    throw error
  }
}
