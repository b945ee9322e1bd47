import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { describeStartFailure } from '#start/start_failure'

/**
 * `node ace tern:migrate`: applies the pending migrations, waiting for any
 * other instance that is migrating the same database (see
 * #services/system/migration_lock). `npm start` runs it before serving, so
 * any number of instances started together all come up.
 */
export default class TernMigrate extends BaseCommand {
  static commandName = 'tern:migrate'
  static description = 'Apply pending migrations; safe when several instances start at once'
  static options: CommandOptions = { startApp: true }

  async run() {
    const { withMigrationLock } = await import('#services/system/migration_lock')
    const onWait = () =>
      this.logger.info('waiting for another Tern instance to finish its migrations...')
    try {
      await withMigrationLock(
        async () => {
          // Lucid's own lock is replaced by the one above; schema classes are a development aid.
          const result = await this.kernel.exec('migration:run', [
            '--force',
            '--disable-locks',
            '--no-schema-generate',
          ])
          this.exitCode = result.exitCode
          this.error = result.error
        },
        { onWait }
      )
    } catch (error) {
      // `npm start` stops on it: one line saying what is wrong (database unreachable, lock timeout...).
      this.exitCode = 1
      this.logger.error(`the migrations were not applied: ${describeStartFailure(error)}`)
    }
  }
}
