/**
 * The `s3` disk's wiring: the driver factory reading the `s3.*` config
 * variables and the default-disk resolver for `s3.enabled`.
 */
import type { ConfigValues } from '#extensions/config/config_values'
import { configValues } from '#extensions/config/config_values'
import type { DefaultDiskResolver } from '#extensions/storage/types'
import { isS3Enabled, readS3Settings } from './config.js'
import { S3StorageDriver, type S3StorageDriverOptions } from './drivers/s3_storage_driver.js'

/** The disk name this plugin registers. */
export const S3_DISK_NAME = 's3'

/**
 * A driver configured from the `s3.*` variables, read before every
 * operation (changes apply without a restart).
 */
export function s3DriverFromConfig(
  values: ConfigValues = configValues,
  options: Omit<S3StorageDriverOptions, 'settings'> = {}
): S3StorageDriver {
  return new S3StorageDriver({ ...options, settings: () => readS3Settings(values) })
}

/** Resolves the default disk to `s3` while `s3.enabled` is on (else lets the next resolver decide). */
export function s3DefaultResolver(values: ConfigValues = configValues): DefaultDiskResolver {
  return async () => ((await isS3Enabled(values)) ? S3_DISK_NAME : undefined)
}
