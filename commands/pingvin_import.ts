import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * `node ace pingvin:import <dir>`: imports a Pingvin Share data folder
 * (`pingvin-share.db` and `uploads/`) into this Tern instance; the work is
 * in #services/pingvin_import/importer (docs/design/pingvin_import.md).
 * Exit code 1 when the run was refused or the source cannot be read;
 * rows that were skipped or collided are reported, not failures.
 */
export default class PingvinImport extends BaseCommand {
  static commandName = 'pingvin:import'
  static description =
    'Import a Pingvin Share instance (users, shares, files, reverse shares, settings)'
  static options: CommandOptions = { startApp: true }

  @args.string({
    description: 'Pingvin data folder holding pingvin-share.db and uploads/',
    required: false,
  })
  declare dir?: string

  @flags.string({ description: 'The Pingvin SQLite file (instead of <dir>)' })
  declare db?: string

  @flags.string({ description: 'The Pingvin uploads folder (instead of <dir>)' })
  declare uploads?: string

  @flags.boolean({ description: 'Read and check everything, write nothing' })
  declare dryRun?: boolean

  @flags.boolean({
    description:
      'Import into a Tern instance that already holds data (collisions are reported, never overwritten)',
  })
  declare merge?: boolean

  @flags.string({ description: 'Storage disk for the files (default: the disk new uploads go to)' })
  declare disk?: string

  @flags.boolean({ description: 'Print the report as JSON' })
  declare json?: boolean

  async run() {
    const { PingvinImporter, PingvinSourceError } =
      await import('#services/pingvin_import/importer')
    const { pathsOfDataFolder } = await import('#services/pingvin_import/source')
    const { formatReport } = await import('#services/pingvin_import/report')
    let paths
    if (this.dir && !this.db && !this.uploads) paths = pathsOfDataFolder(this.dir)
    else if (!this.dir && this.db && this.uploads) paths = { db: this.db, uploads: this.uploads }
    else {
      this.logger.error(
        'give either <dir> (a Pingvin data folder) or both --db <file> and --uploads <dir>'
      )
      this.exitCode = 1
      return
    }
    if (!this.json)
      this.logger.info('stop Pingvin before importing; its database and uploads are only read')
    try {
      const importer = new PingvinImporter({
        paths,
        dryRun: this.dryRun === true,
        merge: this.merge === true,
        disk: this.disk,
        log: this.json ? undefined : (line) => this.logger.info(line),
      })
      const report = await importer.run()
      if (this.json) this.logger.log(JSON.stringify(report))
      else for (const line of formatReport(report)) this.logger.log(line)
      if (report.refused) this.exitCode = 1
    } catch (error) {
      if (!(error instanceof PingvinSourceError)) throw error
      this.logger.error(error.message)
      this.exitCode = 1
    }
  }
}
