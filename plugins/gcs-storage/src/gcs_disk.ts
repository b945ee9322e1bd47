/**
 * The `gcs` disk's wiring: the driver factory reading the `gcs.*` config
 * variables and the default-disk resolver for `gcs.enabled`.
 */
import type { ConfigValues } from '#extensions/config/config_values'
import { configValues } from '#extensions/config/config_values'
import type { DefaultDiskResolver } from '#extensions/storage/types'
import { isGcsEnabled, readGcsSettings } from './config.js'
import { GcsStorageDriver, type GcsStorageDriverOptions } from './drivers/gcs_storage_driver.js'

/** The disk name this plugin registers. */
export const GCS_DISK_NAME = 'gcs'

/**
 * A driver configured from the `gcs.*` variables, read before every
 * operation (changes apply without a restart).
 */
export function gcsDriverFromConfig(
  values: ConfigValues = configValues,
  options: Omit<GcsStorageDriverOptions, 'settings'> = {}
): GcsStorageDriver {
  return new GcsStorageDriver({ ...options, settings: () => readGcsSettings(values) })
}

/** Resolves the default disk to `gcs` while `gcs.enabled` is on (else lets the next resolver decide). */
export function gcsDefaultResolver(values: ConfigValues = configValues): DefaultDiskResolver {
  return async () => ((await isGcsEnabled(values)) ? GCS_DISK_NAME : undefined)
}
