/**
 * The `gcs` configuration category (admin panel "Google Cloud Storage") and
 * the typed settings the driver is built from. Values are read at run time
 * through `configValues`, so a change in the admin settings applies to the
 * next storage operation, without a restart.
 */
import { configValues, type ConfigValues } from '#extensions/config/config_values'
import type { ConfigCategoryDefinition, ConfigValue } from '#extensions/config/types'
import { bucketPathOf, bucketPathRule, endpointRule } from '#extensions/storage/object_store'

/** Every key of the category, in admin-panel order. */
export const GCS_CONFIG_KEYS = [
  'gcs.enabled',
  'gcs.bucketName',
  'gcs.bucketPath',
  'gcs.projectId',
  'gcs.credentials',
  'gcs.endpoint',
] as const

/** One key of the category. */
export type GcsConfigKey = (typeof GCS_CONFIG_KEYS)[number]

/** The connection settings of the `gcs` disk, as the driver uses them. */
export interface GcsSettings {
  /** The bucket; required. */
  bucketName: string
  /** Object-name prefix inside the bucket (`tern/files`), normalised without outer slashes; empty = bucket root. */
  bucketPath: string
  /** The Google Cloud project id; empty = the one of the credentials. */
  projectId: string
  /**
   * A service-account key (the JSON file Google Cloud hands out), as text;
   * empty = Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
   * workload identity, the metadata server).
   */
  credentials: string
  /** API endpoint (`http://127.0.0.1:9199` for an emulator); empty = Google's. */
  endpoint: string
}

const endpointError = endpointRule('The Cloud Storage endpoint must be an http:// or https:// URL')
const bucketPathError = bucketPathRule(
  'The bucket path may use letters, digits, "-", "_", "!", ".", spaces and "/" separators, without ".." segments'
)

/** The parsed credentials JSON, or undefined when `text` is empty. Throws for anything but a JSON object. */
export function parseGcsCredentials(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined
  const value = JSON.parse(text) as unknown
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('not a JSON object')
  return value as Record<string, unknown>
}

function credentialsError(value: ConfigValue): string | undefined {
  try {
    const credentials = parseGcsCredentials(String(value))
    if (!credentials || typeof credentials.type === 'string') return undefined
  } catch {}
  return 'The credentials must be the JSON key file of a service account (an object with "type", "client_email", "private_key")'
}

/** The category the manifest declares (registered by the plugin host with source `gcs-storage`). */
export const gcsConfigCategory: ConfigCategoryDefinition = {
  id: 'gcs',
  displayName: 'Google Cloud Storage',
  order: 105,
  variables: [
    {
      key: 'gcs.enabled',
      type: 'boolean',
      defaultValue: 'false',
      description:
        'Store NEW files on the gcs disk. Files already stored stay on the disk recorded with them.',
    },
    {
      key: 'gcs.bucketName',
      type: 'string',
      defaultValue: '',
      description: 'The bucket (must exist).',
      validation: {
        pattern: /^$|^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/,
        message:
          'A Cloud Storage bucket name uses lower-case letters, digits, ".", "-" and "_" (3 to 222 characters)',
      },
    },
    {
      key: 'gcs.bucketPath',
      type: 'string',
      defaultValue: '',
      description:
        'Object-name prefix inside the bucket, e.g. tern/uploads (empty: the bucket root).',
      validation: { validate: bucketPathError },
    },
    {
      key: 'gcs.projectId',
      type: 'string',
      defaultValue: '',
      description: 'Google Cloud project id (empty: the project of the credentials).',
      validation: {
        pattern: /^$|^[a-z][a-z0-9:.-]{2,62}$/,
        message:
          'A Google Cloud project id uses lower-case letters, digits and "-" (optionally after a "domain:" prefix)',
      },
    },
    {
      key: 'gcs.credentials',
      type: 'text',
      defaultValue: '',
      obscured: true,
      description:
        'The JSON key of a service account with the Storage Object Admin role on the bucket. Empty: Application Default Credentials.',
      validation: { validate: credentialsError },
    },
    {
      key: 'gcs.endpoint',
      type: 'string',
      defaultValue: '',
      description:
        'API endpoint URL, e.g. http://127.0.0.1:9199 for an emulator. Empty: Google Cloud Storage.',
      validation: { validate: endpointError },
    },
  ],
}

/** Builds the settings from effective values of the category's keys. */
export function gcsSettingsFrom(values: Record<GcsConfigKey, ConfigValue>): GcsSettings {
  return {
    bucketName: String(values['gcs.bucketName']).trim(),
    bucketPath: bucketPathOf(values['gcs.bucketPath']),
    projectId: String(values['gcs.projectId']).trim(),
    credentials: String(values['gcs.credentials']),
    endpoint: String(values['gcs.endpoint']).trim().replace(/\/+$/, ''),
  }
}

/** Reads the current settings (one query). */
export async function readGcsSettings(values: ConfigValues = configValues): Promise<GcsSettings> {
  return gcsSettingsFrom(await values.getMany(GCS_CONFIG_KEYS))
}

/** Whether `gcs.enabled` is on (new files go to the GCS disk). */
export async function isGcsEnabled(values: ConfigValues = configValues): Promise<boolean> {
  return (await values.get('gcs.enabled')) === true
}
