/**
 * The object-store helpers the bucket drivers share (S3, GCS): keys under a
 * bucket path, part checks, part order, the options an object keeps. The
 * drivers' contract suites run them against real stores; this pins the rules.
 */
import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import { DriveDirectory, DriveFile } from 'flydrive'
import type { DriverContract } from 'flydrive/types'
import { DEFAULT_MULTIPART_LIMITS } from '#extensions/storage/capabilities'
import {
  BucketPrefix,
  bucketPathOf,
  bucketPathRule,
  checkPart,
  endpointRule,
  objectWriteOptions,
  sortParts,
} from '#extensions/storage/object_store'

class CodedError extends Error {
  constructor(
    message: string,
    readonly code: string
  ) {
    super(message)
  }
}

const invalid = (code: string) => (message: string) => new CodedError(message, code)

test.group('Storage | object store helpers', () => {
  test('BucketPrefix puts keys under the bucket path and strips it again', ({ assert }) => {
    const prefix = new BucketPrefix('tern/uploads', invalid('E_KEY'))
    assert.equal(prefix.key('shares/a/b.bin'), 'tern/uploads/shares/a/b.bin')
    assert.equal(prefix.folder('shares'), 'tern/uploads/shares/')
    assert.equal(prefix.folder('/'), 'tern/uploads/')
    assert.equal(prefix.strip('tern/uploads/shares/a'), 'shares/a')
    assert.equal(prefix.strip('elsewhere/x'), 'elsewhere/x')

    const root = new BucketPrefix('', invalid('E_KEY'))
    assert.equal(root.key('a.txt'), 'a.txt')
    assert.equal(root.folder(''), '')
    assert.equal(root.folder('a'), 'a/')
  })

  test('BucketPrefix refuses keys that could leave the bucket path, with the driver error', ({
    assert,
  }) => {
    const prefix = new BucketPrefix('root', invalid('E_KEY'))
    for (const key of [
      '',
      '/abs',
      '../up',
      'a/../../b',
      'a/./b',
      'a//b',
      'back\\slash',
      'nul\0',
      'line\nbreak',
    ]) {
      const error = (() => {
        try {
          prefix.key(key)
        } catch (caught) {
          return caught as CodedError
        }
      })()
      assert.equal(error?.code, 'E_KEY', JSON.stringify(key))
      assert.match(error!.message, /Invalid key/)
    }
    assert.throws(() => prefix.folder('../up'), /Invalid key/)
  })

  test('strippedListing gives disk keys and binds files to the driver', async ({ assert }) => {
    const prefix = new BucketPrefix('p', invalid('E_KEY'))
    const driver = {} as DriverContract
    const meta = { contentLength: 1, etag: 'e', lastModified: new Date(0) }
    const page = await prefix.strippedListing(
      {
        paginationToken: 'next',
        objects: [new DriveDirectory('p/folder'), new DriveFile('p/folder/a.txt', driver, meta)],
      },
      driver
    )
    const objects = [...page.objects]
    assert.equal(page.paginationToken, 'next')
    assert.instanceOf(objects[0], DriveDirectory)
    assert.equal((objects[0] as DriveDirectory).prefix, 'folder')
    assert.equal((objects[1] as DriveFile).key, 'folder/a.txt')
  })

  test('checkPart accepts numbered parts of known length and refuses the rest', ({ assert }) => {
    const part = invalid('E_PART')
    assert.equal(checkPart(DEFAULT_MULTIPART_LIMITS, 1, Buffer.from('abc'), undefined, part), 3)
    assert.equal(checkPart(DEFAULT_MULTIPART_LIMITS, 10_000, Readable.from([]), 0, part), 0)
    assert.throws(
      () => checkPart(DEFAULT_MULTIPART_LIMITS, 0, Buffer.from(''), undefined, part),
      /from 1 to 10000/
    )
    assert.throws(
      () => checkPart(DEFAULT_MULTIPART_LIMITS, 10_001, Buffer.from(''), undefined, part),
      /got 10001/
    )
    assert.throws(
      () => checkPart(DEFAULT_MULTIPART_LIMITS, 1.5, Buffer.from(''), undefined, part),
      /integer/
    )
    assert.throws(
      () => checkPart(DEFAULT_MULTIPART_LIMITS, 1, Readable.from([]), undefined, part),
      /contentLength/
    )
    assert.throws(
      () => checkPart(DEFAULT_MULTIPART_LIMITS, 1, Readable.from([]), -1, part),
      /contentLength/
    )
  })

  test('sortParts orders a copy; objectWriteOptions keeps only what the object keeps', ({
    assert,
  }) => {
    const parts = [
      { partNumber: 3, etag: 'c' },
      { partNumber: 1, etag: 'a' },
      { partNumber: 2, etag: 'b' },
    ]
    assert.deepEqual(
      sortParts(parts).map((part) => part.etag),
      ['a', 'b', 'c']
    )
    assert.equal(parts[0].partNumber, 3)
    assert.deepEqual(
      objectWriteOptions({ contentType: 'text/plain', contentLength: 4, cacheControl: 'no-cache' }),
      {
        contentType: 'text/plain',
        contentDisposition: undefined,
        contentEncoding: undefined,
        contentLanguage: undefined,
        cacheControl: 'no-cache',
      }
    )
  })

  test('the endpoint and bucket-path rules accept what the drivers can use and answer the message otherwise', ({
    assert,
  }) => {
    const endpoint = endpointRule('bad endpoint')
    for (const value of ['', 'https://s3.example.com', ' http://127.0.0.1:9000 '])
      assert.isUndefined(endpoint(value), value)
    for (const value of ['ftp://files.example.com', 'example.com', 'http://'])
      assert.equal(endpoint(value), 'bad endpoint', value)

    const bucketPath = bucketPathRule('bad path')
    for (const value of ['', '/', 'tern/uploads', ' tern '])
      assert.isUndefined(bucketPath(value), value)
    for (const value of ['../up', 'a/../../b']) assert.equal(bucketPath(value), 'bad path', value)
    assert.equal(bucketPathOf(' / '), '')
    assert.equal(bucketPathOf('tern/uploads'), 'tern/uploads')
  })
})
