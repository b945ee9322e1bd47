/**
 * The `s3` configuration category (admin panel "S3") and the typed settings
 * the driver is built from. Pingvin Share's names are kept (`s3.enabled`,
 * `s3.endpoint`, `s3.region`, `s3.bucketName`, `s3.bucketPath`, `s3.key`,
 * `s3.secret`); `s3.forcePathStyle` is new. Values are read at run time
 * through `configValues`, so a change in the admin settings applies to the
 * next storage operation, without a restart. Each one's first value may come
 * from the environment (`S3_ENABLED`, `S3_ENDPOINT`, `S3_REGION`,
 * `S3_BUCKET`, `S3_BUCKET_PATH`, `S3_KEY`, `S3_SECRET`,
 * `S3_FORCE_PATH_STYLE`: `seedFromEnv`), so a deployment (compose.yaml)
 * stores files in its bucket from the first start without an admin step;
 * what an admin changes later stays.
 */
import { configValues, type ConfigValues } from '#extensions/config/config_values'
import type { ConfigCategoryDefinition, ConfigValue } from '#extensions/config/types'
import { bucketPathOf, bucketPathRule, endpointRule } from '#extensions/storage/object_store'

/** Every key of the category, in admin-panel order. */
export const S3_CONFIG_KEYS = [
  's3.enabled',
  's3.endpoint',
  's3.region',
  's3.bucketName',
  's3.bucketPath',
  's3.key',
  's3.secret',
  's3.forcePathStyle',
] as const

/** One key of the category. */
export type S3ConfigKey = (typeof S3_CONFIG_KEYS)[number]

/** The region used when `s3.region` is empty (S3-compatible servers mostly ignore it). */
export const S3_DEFAULT_REGION = 'us-east-1'

/** The connection settings of the `s3` disk, as the driver uses them. */
export interface S3Settings {
  /** Endpoint URL (`https://s3.example.com`); empty = Amazon S3 for the region. */
  endpoint: string
  /** Region; empty = `us-east-1`. */
  region: string
  /** The bucket; required. */
  bucketName: string
  /** Key prefix inside the bucket (`tern/files`), normalised without outer slashes; empty = bucket root. */
  bucketPath: string
  /** Access key id; empty (with `secret`) = the AWS default credential chain (env, profile, instance role). */
  key: string
  /** Secret access key. */
  secret: string
  /** Path-style requests (`endpoint/bucket/key`): MinIO, s3rver and most self-hosted servers need it. */
  forcePathStyle: boolean
}

const endpointError = endpointRule('The S3 endpoint must be an http:// or https:// URL')
const bucketPathError = bucketPathRule(
  'The S3 bucket path may use letters, digits, "-", "_", "!", ".", spaces and "/" separators, without ".." segments'
)

/** The category the manifest declares (registered by the plugin host with source `s3-storage`). */
export const s3ConfigCategory: ConfigCategoryDefinition = {
  id: 's3',
  displayName: 'S3',
  order: 100,
  variables: [
    {
      key: 's3.enabled',
      seedFromEnv: 'S3_ENABLED',
      type: 'boolean',
      defaultValue: 'false',
      description:
        'Store NEW files on the S3 disk. Files already stored stay on the disk recorded with them.',
    },
    {
      key: 's3.endpoint',
      seedFromEnv: 'S3_ENDPOINT',
      type: 'string',
      defaultValue: '',
      description:
        'Endpoint URL, e.g. https://s3.eu-central-1.amazonaws.com or http://minio:9000. Empty: Amazon S3.',
      validation: { validate: endpointError },
    },
    {
      key: 's3.region',
      seedFromEnv: 'S3_REGION',
      type: 'string',
      defaultValue: '',
      description: `Region, e.g. eu-central-1 (empty: ${S3_DEFAULT_REGION}).`,
      validation: {
        pattern: /^[A-Za-z0-9_-]*$/,
        message: 'The S3 region may only contain letters, digits, "-" and "_"',
      },
    },
    {
      key: 's3.bucketName',
      seedFromEnv: 'S3_BUCKET',
      type: 'string',
      defaultValue: '',
      description: 'The bucket (must exist).',
      validation: {
        pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/,
        message: 'The S3 bucket name may only contain letters, digits, ".", "-" and "_"',
      },
    },
    {
      key: 's3.bucketPath',
      seedFromEnv: 'S3_BUCKET_PATH',
      type: 'string',
      defaultValue: '',
      description: 'Key prefix inside the bucket, e.g. tern/uploads (empty: the bucket root).',
      validation: { validate: bucketPathError },
    },
    {
      key: 's3.key',
      seedFromEnv: 'S3_KEY',
      type: 'string',
      defaultValue: '',
      description: 'Access key id. Empty key and secret: the AWS default credential chain.',
    },
    {
      key: 's3.secret',
      seedFromEnv: 'S3_SECRET',
      type: 'string',
      defaultValue: '',
      obscured: true,
      description: 'Secret access key.',
    },
    {
      key: 's3.forcePathStyle',
      seedFromEnv: 'S3_FORCE_PATH_STYLE',
      type: 'boolean',
      defaultValue: 'false',
      description:
        'Use path-style URLs (endpoint/bucket/key) instead of bucket subdomains: MinIO and most self-hosted servers need it.',
    },
  ],
}

/** Builds the settings from effective values of the category's keys. */
export function s3SettingsFrom(values: Record<S3ConfigKey, ConfigValue>): S3Settings {
  return {
    endpoint: String(values['s3.endpoint']).trim(),
    region: String(values['s3.region']).trim(),
    bucketName: String(values['s3.bucketName']).trim(),
    bucketPath: bucketPathOf(values['s3.bucketPath']),
    key: String(values['s3.key']).trim(),
    secret: String(values['s3.secret']),
    forcePathStyle: values['s3.forcePathStyle'] === true,
  }
}

/** Reads the current settings (one query). */
export async function readS3Settings(values: ConfigValues = configValues): Promise<S3Settings> {
  return s3SettingsFrom(await values.getMany(S3_CONFIG_KEYS))
}

/** Whether `s3.enabled` is on (new files go to the S3 disk). */
export async function isS3Enabled(values: ConfigValues = configValues): Promise<boolean> {
  return (await values.get('s3.enabled')) === true
}
