/**
 * Public surface of the gcs-storage plugin.
 */
export { manifest } from './manifest.js'
export {
  GcsStorageDriver,
  GcsStorageDriverError,
  GCS_MAX_COMPOSE_SOURCES,
  GCS_MULTIPART_LIMITS,
  type GcsStorageDriverOptions,
} from './src/drivers/gcs_storage_driver.js'
export {
  GCS_CONFIG_KEYS,
  gcsConfigCategory,
  gcsSettingsFrom,
  readGcsSettings,
  isGcsEnabled,
  parseGcsCredentials,
  type GcsConfigKey,
  type GcsSettings,
} from './src/config.js'
export { GCS_DISK_NAME, gcsDriverFromConfig, gcsDefaultResolver } from './src/gcs_disk.js'
