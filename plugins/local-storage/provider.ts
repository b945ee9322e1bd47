import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { storage } from '#extensions/storage/main'
import { LOCAL_DISK_NAME, localDisk } from './src/local_disk.js'

/**
 * Registers the `local` disk (the default disk unless another plugin asks to
 * be) rooted at `${DATA_DIR}/uploads`.
 */
export default class LocalStorageProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  /** Contributes the disk. */
  async boot() {
    storage.registerDriver(LOCAL_DISK_NAME, localDisk(this.context.env.get('DATA_DIR')))
  }
}
