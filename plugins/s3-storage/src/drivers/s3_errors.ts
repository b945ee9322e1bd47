/** The errors of the S3 driver's own rules (keys, settings, parts). */
/** A failure of the driver's own rules (bad key, missing settings). */
export class S3StorageDriverError extends Error {
  constructor(
    message: string,
    readonly code: 'E_S3_INVALID_KEY' | 'E_S3_NOT_CONFIGURED' | 'E_S3_INVALID_PART'
  ) {
    super(message)
    this.name = 'S3StorageDriverError'
  }
}

export const invalidKey = (message: string) => new S3StorageDriverError(message, 'E_S3_INVALID_KEY')
export const invalidPart = (message: string) =>
  new S3StorageDriverError(message, 'E_S3_INVALID_PART')
