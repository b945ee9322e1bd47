import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { storage } from '#extensions/storage/main'
import type { S3StorageDriver } from './src/drivers/s3_storage_driver.js'
import { S3_DISK_NAME, s3DefaultResolver, s3DriverFromConfig } from './src/s3_disk.js'

/**
 * Registers the `s3` disk (never the static default) and a default-disk
 * resolver answering `s3` while `s3.enabled` is on; closes the S3 client on
 * shutdown.
 */
export default class S3StorageProvider {
  #driver?: S3StorageDriver

  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  /** Contributes the disk and the resolver. */
  async boot() {
    storage.registerDriver(S3_DISK_NAME, () => (this.#driver ??= s3DriverFromConfig()))
    storage.addDefaultResolver(s3DefaultResolver())
  }

  /** Destroys the S3 client. */
  async shutdown() {
    this.#driver?.close()
  }
}
