import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Schedules the cleanup jobs (app/services/jobs) in the web server process
 * only: each runs on its interval under its lock, so with several instances
 * one of them does the work. Failures are logged; timers never keep the
 * process alive and stop at shutdown.
 */
export default class JobsProvider {
  #timers: NodeJS.Timeout[] = []

  constructor(protected app: ApplicationService) {}

  async ready() {
    if (this.app.getEnvironment() !== 'web') return
    const logger = await this.app.container.make('logger')
    const { JOBS, runJob } = await import('#services/jobs/job_runner')
    for (const name of Object.keys(JOBS) as (keyof typeof JOBS)[]) {
      const tick = () =>
        runJob(name)
          .then((ran) => logger.debug({ job: name, ran }, 'cleanup job tick'))
          .catch((error) => logger.error({ err: error, job: name }, 'cleanup job failed'))
      this.#timers.push(setInterval(tick, JOBS[name].every).unref())
      setTimeout(tick, 30_000).unref()
    }
  }

  async shutdown() {
    for (const timer of this.#timers) clearInterval(timer)
    this.#timers = []
  }
}
