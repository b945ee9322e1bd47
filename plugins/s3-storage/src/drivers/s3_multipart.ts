/** Multipart uploads of the S3 driver: S3's "no such upload" answer and the listing's pagination token. */

/** True for S3's "no such upload" answer (unknown, completed or aborted upload id). */
export function isNoSuchUpload(error: unknown): boolean {
  const candidate = error as {
    name?: string
    Code?: string
    $metadata?: { httpStatusCode?: number }
  }
  return (
    candidate?.name === 'NoSuchUpload' ||
    candidate?.Code === 'NoSuchUpload' ||
    candidate?.$metadata?.httpStatusCode === 404
  )
}

/** S3's listing markers of a multipart-upload page. */
interface UploadMarkers {
  key?: string
  uploadId?: string
}

/** The opaque pagination token of `listMultipartUploads`. */
export function encodeMarkers(markers: UploadMarkers): string {
  return Buffer.from(JSON.stringify(markers)).toString('base64url')
}

/** Reads a token of `encodeMarkers` (an unreadable one starts from the beginning). */
export function decodeMarkers(token: string): UploadMarkers {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as UploadMarkers
    return {
      key: typeof value.key === 'string' ? value.key : undefined,
      uploadId: typeof value.uploadId === 'string' ? value.uploadId : undefined,
    }
  } catch {
    return {}
  }
}
