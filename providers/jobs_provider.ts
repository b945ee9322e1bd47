import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Schedules the jobs of app/services/jobs/schedule.ts in the web server process
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
    const { default: JobRunner } = await import('#services/jobs/job_runner')
    const runner = await this.app.container.make(JobRunner)
    for (const name of runner.names()) {
      const tick = () =>
        runner
          .run(name)
          .then((ran) => logger.debug({ job: name, ran }, 'job tick'))
          .catch((error) => logger.error({ err: error, job: name }, 'job failed'))
      this.#timers.push(setInterval(tick, runner.interval(name)).unref())
      setTimeout(tick, 30_000).unref()
    }
  }

  async shutdown() {
    for (const timer of this.#timers) clearInterval(timer)
    this.#timers = []
  }
}
