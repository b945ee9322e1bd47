/**
 * Runs the scheduled jobs (schedule.ts) under a lock (@adonisjs/lock:
 * database store, or Redis when configured), so with several instances only
 * one runs each job at a time; the others skip their turn.
 */
import { inject } from '@adonisjs/core'
import lock from '@adonisjs/lock/services/main'
import { JOBS, type JobName } from '#services/jobs/schedule'
import { jobRuns } from '#services/system/metrics'

/** See the module comment; resolve it from the container or inject it. */
@inject()
export default class JobRunner {
  /** The names of the scheduled jobs. */
  names(): JobName[] {
    return Object.keys(JOBS) as JobName[]
  }

  /** Milliseconds between two turns of job `name`. */
  interval(name: JobName): number {
    return JOBS[name].every
  }

  /**
   * Runs job `name` if no instance holds its lock (the lock expires after 30
   * minutes should an instance die while running it). Resolves to whether it
   * ran; rejects with the job's error when it failed.
   */
  async run(name: JobName): Promise<boolean> {
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
}
