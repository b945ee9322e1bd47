import { join } from 'node:path'
import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { storage, storageErrors } from '#extensions/storage/main'
import { verifySharedStorageRoot } from '#extensions/storage/shared_root'
import { LOCAL_DISK_NAME, localDisk } from './src/local_disk.js'

/**
 * Registers the `local` disk (the default disk unless another plugin asks to
 * be) rooted at `${DATA_DIR}/uploads`, and refuses to start a server whose
 * root is not the one the database's other instances use.
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

  /**
   * Web server only: checks the root's identity (#extensions/storage/shared_root).
   * A root that belongs to another storage stops the start with what to do;
   * a check that cannot run (database down) is logged and skipped, so the
   * server still starts and /api/health reports the database.
   */
  async start() {
    if (this.app.getEnvironment() !== 'web') return
    const root = join(this.context.env.get('DATA_DIR'), 'uploads')
    try {
      await verifySharedStorageRoot(LOCAL_DISK_NAME, root)
    } catch (error) {
      if (error instanceof storageErrors.E_STORAGE_ROOT_NOT_SHARED) throw error
      const logger = await this.app.container.make('logger')
      logger.warn({ err: error }, 'local storage: the identity of %s could not be checked', root)
    }
  }
}
