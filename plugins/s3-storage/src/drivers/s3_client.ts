/**
 * The S3 client of the driver: one `Connection` (an S3Client and flydrive's
 * S3Driver on it) per set of settings, and the encoding of copy sources.
 */
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { S3Driver } from 'flydrive/drivers/s3'
import { BucketPrefix } from '#extensions/storage/object_store'
import { S3_DEFAULT_REGION, type S3Settings } from '../config.js'
import { invalidKey } from './s3_errors.js'

/** One client built from one set of settings. */
export interface Connection {
  fingerprint: string
  settings: S3Settings
  /** The disk's keys under `s3.bucketPath`. */
  prefix: BucketPrefix
  client: S3Client
  drive: S3Driver
  /** Requests (and open download streams) still using the client. */
  active: number
  /** Superseded by newer settings: destroyed when `active` drops to 0. */
  retired: boolean
}

/** A client and flydrive driver for `settings` (`fingerprint`: their JSON, to tell when they change). */
export function connect(
  settings: S3Settings,
  fingerprint: string,
  clientConfig: Partial<S3ClientConfig> | undefined
): Connection {
  const client = new S3Client({
    region: settings.region || S3_DEFAULT_REGION,
    endpoint: settings.endpoint || undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.key || settings.secret
        ? { accessKeyId: settings.key, secretAccessKey: settings.secret }
        : undefined,
    // Only the checksums S3 requires: optional ones switch streamed bodies
    // to aws-chunked encoding, which S3-compatible servers often reject.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...clientConfig,
  })
  const connection: Connection = {
    fingerprint,
    settings,
    prefix: new BucketPrefix(settings.bucketPath, invalidKey),
    client,
    drive: new S3Driver({
      client,
      bucket: settings.bucketName,
      visibility: 'private',
      supportsACL: false,
    }),
    active: 0,
    retired: false,
  }
  return connection
}

/** URL-encodes each segment of a key (S3's `CopySource` must be encoded). */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/')
}
