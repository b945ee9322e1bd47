import { test } from '@japa/runner'
import {
  SHARE_ID_PATTERN,
  UploadError,
  backoffDelay,
  chunkCount,
  newUploadState,
  randomShareId,
} from '../../inertia/lib/upload.js'
import { formatBytes, formatDate, isNeverExpiring } from '../../inertia/lib/format.js'

test.group('Upload client | pure helpers', () => {
  test('a file is cut in chunks of the configured size, an empty file in one', ({ assert }) => {
    assert.equal(chunkCount(0, 1000), 1)
    assert.equal(chunkCount(1, 1000), 1)
    assert.equal(chunkCount(1000, 1000), 1)
    assert.equal(chunkCount(1001, 1000), 2)
    assert.equal(chunkCount(10_000_000 * 3 + 1, 10_000_000), 4)
  })

  test('the back-off doubles at each retry up to its cap', ({ assert }) => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, 500, 10_000)),
      [500, 1000, 2000, 4000, 8000, 10_000]
    )
  })

  test('network errors, 408, 429 and 5xx but 507 are worth retrying; refusals are not', ({
    assert,
  }) => {
    assert.isTrue(new UploadError('network', 0, 'fetch failed').retryable)
    for (const status of [408, 429, 500, 502, 503])
      assert.isTrue(new UploadError('http', status, 'x').retryable, String(status))
    for (const status of [400, 401, 403, 404, 413, 507])
      assert.isFalse(new UploadError('http', status, 'x').retryable, String(status))
    assert.isFalse(new UploadError('aborted', 0, 'Upload aborted').retryable)
    assert.isTrue(
      new UploadError('http', 409, 'x', 'file_assembling').retryable,
      'a file still being assembled'
    )
    assert.isFalse(new UploadError('http', 409, 'x', 'Conflict').retryable)
  })

  test('expectedChunkIndex is read only from the contract 400 body', ({ assert }) => {
    const body = {
      message: 'Unexpected chunk received',
      error: 'unexpected_chunk_index',
      expectedChunkIndex: 3,
    }
    assert.equal(new UploadError('http', 400, body.message, body.error, body).expectedChunkIndex, 3)
    assert.isNull(
      new UploadError('http', 400, 'x', 'Bad Request', { expectedChunkIndex: 3 }).expectedChunkIndex
    )
    assert.isNull(
      new UploadError('http', 400, 'x', 'unexpected_chunk_index', { expectedChunkIndex: -1 })
        .expectedChunkIndex
    )
  })

  test('random share ids have the asked length and follow the id rule', ({ assert }) => {
    const ids = new Set<string>()
    for (let i = 0; i < 50; i++) {
      const id = randomShareId(8)
      assert.lengthOf(id, 8)
      assert.match(id, SHARE_ID_PATTERN)
      ids.add(id)
    }
    assert.isAbove(ids.size, 45)
    assert.lengthOf(randomShareId(2), 3)
    assert.lengthOf(randomShareId(80), 50)
    assert.notMatch('with space', SHARE_ID_PATTERN)
    assert.notMatch('dot.ted', SHARE_ID_PATTERN)
  })

  test('a fresh upload state holds nothing', ({ assert }) => {
    const state = newUploadState()
    assert.equal(state.done.size, 0)
    assert.equal(state.uploadedBytes, 0)
    assert.isUndefined(state.fileId)
  })
})

test.group('Share formatting | sizes, dates and expiration', () => {
  test('sizes are 1000-based with at most one decimal', ({ assert }) => {
    assert.equal(formatBytes(0), '0 bytes')
    assert.equal(formatBytes(999), '999 bytes')
    assert.equal(formatBytes(1000), '1 kB')
    assert.equal(formatBytes(1_500_000), '1.5 MB')
    assert.equal(formatBytes(1_000_000_000), '1 GB')
    assert.equal(formatBytes(1_234_567_890_123), '1.2 TB')
    assert.equal(formatBytes(1_500_000, 'de-DE'), '1,5 MB')
  })

  test('the epoch means never expires', ({ assert }) => {
    assert.isTrue(isNeverExpiring('1970-01-01T00:00:00.000Z'))
    assert.isTrue(isNeverExpiring(''))
    assert.isFalse(isNeverExpiring('2030-01-01T00:00:00.000Z'))
  })

  test('dates are written for the locale', ({ assert }) => {
    assert.include(formatDate('2030-01-05T12:00:00.000Z', 'en-US'), 'Jan 5, 2030')
    assert.include(formatDate('2030-01-05T12:00:00.000Z', 'de-DE'), '05.01.2030')
    assert.equal(formatDate('not a date', 'en-US'), 'not a date')
  })
})
