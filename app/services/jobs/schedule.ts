/**
 * The scheduled jobs: each name with how often it runs and the service
 * method a turn calls. JobsProvider schedules every entry in the web
 * process, JobRunner (job_runner.ts) runs a turn under its lock and counts it
 * in `tern_job_runs_total{job}`.
 *
 * To add a job, write an `@inject()` service (app/services/jobs/<name>_job.ts
 * or a method of an existing service) and add one line here:
 * `myJob: scheduled(HOUR, MyJob, (job) => job.run())`. The service is
 * resolved from the container at each turn, so it takes its dependencies in
 * its constructor like any other service.
 */
import app from '@adonisjs/core/services/app'
import AuthTokenCleanup from '#services/auth/token_cleanup'
import UploadFinalisation from '#services/files/upload_finalisation'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import ExpiryNoticeJob from '#services/jobs/expiry_notice_job'

/** A job on the schedule. */
export interface ScheduledJob {
  /** Milliseconds between two turns. */
  every: number
  /** One turn: resolves the job's service and calls it; rejects when the turn failed. */
  run(): Promise<unknown>
}

/** A class the container can build (its constructor dependencies are injected). */
type Service<T> = abstract new (...args: any[]) => T

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** A job that runs `turn` on a `service` resolved from the container, every `every` ms. */
export function scheduled<T>(
  every: number,
  service: Service<T>,
  turn: (service: T) => Promise<unknown>
): ScheduledJob {
  return { every, run: async () => turn(await app.container.make(service)) }
}

/** The jobs by name (the name is the lock's and the metric label's). */
export const JOBS = {
  expiredShares: scheduled(5 * MINUTE, CleanupJobs, (jobs) => jobs.expiredShares()),
  expiredReverseShares: scheduled(HOUR, CleanupJobs, (jobs) => jobs.expiredReverseShares()),
  unfinishedShares: scheduled(HOUR, CleanupJobs, (jobs) => jobs.unfinishedShares()),
  orphanedUploads: scheduled(HOUR, CleanupJobs, (jobs) => jobs.orphanedUploads()),
  stalledUploads: scheduled(MINUTE, UploadFinalisation, (finalisation) =>
    finalisation.resumeStalled()
  ),
  expiredAuthTokens: scheduled(HOUR, AuthTokenCleanup, (cleanup) => cleanup.purgeExpired()),
  expiryNotices: scheduled(15 * MINUTE, ExpiryNoticeJob, (job) => job.run()),
} satisfies Record<string, ScheduledJob>

/** A job name. */
export type JobName = keyof typeof JOBS
