/**
 * Public surface of the local-storage plugin.
 */
export { manifest } from './manifest.js'
export {
  LocalStorageDriver,
  type LocalStorageDriverOptions,
} from './src/drivers/local_storage_driver.js'
export { localDisk, LOCAL_DISK_NAME } from './src/local_disk.js'
