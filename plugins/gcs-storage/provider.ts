import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { storage } from '#extensions/storage/main'
import type { GcsStorageDriver } from './src/drivers/gcs_storage_driver.js'
import { GCS_DISK_NAME, gcsDefaultResolver, gcsDriverFromConfig } from './src/gcs_disk.js'

/**
 * Registers the `gcs` disk (never the static default) and a default-disk
 * resolver answering `gcs` while `gcs.enabled` is on.
 */
export default class GcsStorageProvider {
  #driver?: GcsStorageDriver

  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  /** Contributes the disk and the resolver. */
  async boot() {
    storage.registerDriver(GCS_DISK_NAME, () => (this.#driver ??= gcsDriverFromConfig()))
    storage.addDefaultResolver(gcsDefaultResolver())
  }

  /** Forgets the client. */
  async shutdown() {
    this.#driver?.close()
  }
}
