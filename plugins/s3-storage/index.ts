/**
 * Public surface of the s3-storage plugin.
 */
export { manifest } from './manifest.js'
export {
  S3StorageDriver,
  S3StorageDriverError,
  type S3StorageDriverOptions,
} from './src/drivers/s3_storage_driver.js'
export {
  S3_CONFIG_KEYS,
  S3_DEFAULT_REGION,
  s3ConfigCategory,
  s3SettingsFrom,
  readS3Settings,
  isS3Enabled,
  type S3ConfigKey,
  type S3Settings,
} from './src/config.js'
export { S3_DISK_NAME, s3DriverFromConfig, s3DefaultResolver } from './src/s3_disk.js'
