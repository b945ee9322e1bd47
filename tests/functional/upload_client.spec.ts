import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { randomBytes } from 'node:crypto'
import {
  ChunkUploader,
  UploadError,
  completeShare,
  createShare,
  isShareIdAvailable,
  newUploadState,
  type ChunkUploaderOptions,
  type FetchFn,
  type RetryEvent,
} from '../../inertia/lib/upload.js'
import {
  api,
  baseUrl,
  cleanupShareTests,
  joinCookies,
  newShareId,
  ownerCookieOf,
  setConfig,
  shareUser,
  type RawResponse,
} from '#tests/helpers/shares'

const CHUNK = 1000

/** A file as the browser would give it: a named Blob. */
function fileOf(name: string, bytes: Buffer) {
  return new File([new Uint8Array(bytes)], name)
}

/** A fetch that records every chunk request (index, in flight at once) before passing it on. */
function recordingFetch(
  wrap?: (url: URL, init: RequestInit | undefined, call: number) => Promise<Response> | null
) {
  const calls: { chunkIndex: number; hasId: boolean }[] = []
  let inFlight = 0
  let maxInFlight = 0
  const fn: FetchFn = async (input, init) => {
    const url = new URL(input)
    if (url.pathname.endsWith('/files')) {
      calls.push({
        chunkIndex: Number(url.searchParams.get('chunkIndex')),
        hasId: url.searchParams.has('id'),
      })
    }
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    try {
      const replaced = wrap?.(url, init, calls.length)
      if (replaced) return await replaced
      // Hold each request a little so parallel chunks overlap measurably.
      await new Promise((resolve) => setTimeout(resolve, 5))
      return await fetch(url, init)
    } finally {
      inFlight--
    }
  }
  return { fn, calls, maxInFlight: () => maxInFlight }
}

/** A share of a fresh user, ready for chunks; resolves to its id and the owner's Cookie header. */
async function newShare() {
  const owner = await shareUser()
  const id = newShareId('client')
  const created = await api('POST', '/api/shares', {
    cookie: owner.cookie,
    json: { id, expiration: 'never', recipients: [] },
  })
  if (created.status !== 201) throw new Error(`create: ${created.status}`)
  return { id, cookie: joinCookies(owner.cookie, ownerCookieOf(created)) }
}

/** Completes the share and downloads one file through a direct link. */
async function storedBytes(shareId: string, fileId: string, cookie: string): Promise<RawResponse> {
  const completed = await api('POST', `/api/shares/${shareId}/complete`, { cookie })
  if (completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.bytes}`)
  return api('GET', `/api/shares/${shareId}/files/${fileId}`)
}

const noSleep = async () => {}

/** An uploader sending `share`'s chunks of CHUNK bytes through `fetch`, with the owner's cookie; `options` on top. */
function uploaderFor(
  share: { cookie: string },
  fetch: FetchFn,
  options: Partial<ChunkUploaderOptions> = {}
) {
  return new ChunkUploader({
    fetch,
    chunkSize: CHUNK,
    baseUrl: baseUrl(),
    headers: { cookie: share.cookie },
    ...options,
  })
}

/** Completes the share and asserts its file `fileId` downloads as `bytes`. */
async function assertStored(
  assert: Assert,
  share: { id: string; cookie: string },
  fileId: string,
  bytes: Buffer
) {
  const download = await storedBytes(share.id, fileId, share.cookie)
  assert.equal(download.status, 200)
  assert.isTrue(download.bytes.equals(bytes))
}

test.group('Upload client | chunked uploads against the server', (group) => {
  group.each.setup(() => setConfig('share.chunkSize', String(CHUNK)))
  group.each.teardown(() => cleanupShareTests())

  test('uploads a file in chunks, the first alone and the others three at a time, byte for byte', async ({
    assert,
  }) => {
    const share = await newShare()
    const bytes = randomBytes(CHUNK * 9 + 123)
    const recorder = recordingFetch()
    const progress: number[] = []
    const uploader = uploaderFor(share, recorder.fn, {
      concurrency: 3,
    })

    const result = await uploader.upload(share.id, fileOf('data.bin', bytes), {
      onProgress: (uploaded, total) => {
        assert.equal(total, bytes.length)
        progress.push(uploaded)
      },
    })

    assert.equal(result.name, 'data.bin')
    assert.lengthOf(recorder.calls, 10)
    assert.deepEqual(recorder.calls[0], { chunkIndex: 0, hasId: false })
    assert.isTrue(recorder.calls.slice(1).every((call) => call.hasId))
    assert.sameMembers(
      recorder.calls.map((call) => call.chunkIndex),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    )
    assert.equal(recorder.maxInFlight(), 3)
    assert.equal(progress.at(-1), bytes.length)
    assert.deepEqual(
      [...progress].sort((a, b) => a - b),
      progress
    )

    await assertStored(assert, share, result.id, bytes)
  })

  test('a first chunk whose answer is lost is retried into the same file, not a second one', async ({
    assert,
  }) => {
    const share = await newShare()
    const bytes = randomBytes(CHUNK * 3 + 7)
    const keys: (string | null)[] = []
    const recorder = recordingFetch((url, init, call) => {
      if (url.searchParams.get('chunkIndex') === '0')
        keys.push(new Headers(init?.headers).get('idempotency-key'))
      if (call !== 1) return null
      // The server stores chunk 0, then the connection drops before the answer arrives.
      return fetch(url, init).then(() => {
        throw new TypeError('fetch failed')
      })
    })
    const uploader = uploaderFor(share, recorder.fn, {
      sleep: noSleep,
    })

    const result = await uploader.upload(share.id, fileOf('lost.bin', bytes))

    assert.lengthOf(keys, 2, 'chunk 0 was sent twice')
    assert.match(keys[0]!, /^[0-9a-f]{32}$/)
    assert.equal(keys[1], keys[0], 'with the same key')
    const listed = await api('GET', `/api/shares/${share.id}/from-owner`, { cookie: share.cookie })
    assert.lengthOf(listed.json.files, 1)
    await assertStored(assert, share, result.id, bytes)
  })

  test('several files share the concurrency limit', async ({ assert }) => {
    const share = await newShare()
    const recorder = recordingFetch()
    const uploader = uploaderFor(share, recorder.fn, {
      concurrency: 2,
    })
    const files = ['a.bin', 'b.bin', 'c.bin'].map((name) => ({
      name,
      bytes: randomBytes(CHUNK * 4),
    }))
    const results = await Promise.all(
      files.map((file) => uploader.upload(share.id, fileOf(file.name, file.bytes)))
    )
    assert.equal(recorder.maxInFlight(), 2)
    assert.lengthOf(recorder.calls, 12)

    await api('POST', `/api/shares/${share.id}/complete`, { cookie: share.cookie })
    for (const [index, file] of files.entries()) {
      const download = await api('GET', `/api/shares/${share.id}/files/${results[index].id}`)
      assert.isTrue(download.bytes.equals(file.bytes), file.name)
    }
  })

  test('an empty file is one empty chunk', async ({ assert }) => {
    const share = await newShare()
    const recorder = recordingFetch()
    const uploader = uploaderFor(share, recorder.fn)
    const result = await uploader.upload(share.id, fileOf('empty.txt', Buffer.alloc(0)))
    assert.deepEqual(recorder.calls, [{ chunkIndex: 0, hasId: false }])
    const download = await storedBytes(share.id, result.id, share.cookie)
    assert.equal(download.status, 200)
    assert.equal(download.bytes.length, 0)
  })

  test('a chunk lost on the network is sent again after a growing back-off, without duplicating data', async ({
    assert,
  }) => {
    const share = await newShare()
    const bytes = randomBytes(CHUNK * 5)
    let failures = 0
    const recorder = recordingFetch((url) => {
      if (url.searchParams.get('chunkIndex') === '3' && failures < 2) {
        failures++
        return Promise.reject(new TypeError('fetch failed'))
      }
      return null
    })
    const retries: RetryEvent[] = []
    const waits: number[] = []
    const uploader = uploaderFor(share, recorder.fn, {
      retryDelay: 100,
      sleep: async (ms) => void waits.push(ms),
      onRetry: (event) => retries.push(event),
    })
    const result = await uploader.upload(share.id, fileOf('retry.bin', bytes))

    assert.deepEqual(
      retries.map((event) => [event.chunkIndex, event.attempt, event.delay, event.error.kind]),
      [
        [3, 1, 100, 'network'],
        [3, 2, 200, 'network'],
      ]
    )
    assert.deepEqual(waits, [100, 200])
    await assertStored(assert, share, result.id, bytes)
  })

  test('a 5xx answer is retried, and gives up after the configured retries', async ({ assert }) => {
    const share = await newShare()
    const recorder = recordingFetch((url) =>
      url.searchParams.get('chunkIndex') === '1'
        ? Promise.resolve(new Response('{"message":"busy"}', { status: 503 }))
        : null
    )
    const retries: RetryEvent[] = []
    const uploader = uploaderFor(share, recorder.fn, {
      retries: 2,
      sleep: noSleep,
      onRetry: (event) => retries.push(event),
    })
    const error = await uploader
      .upload(share.id, fileOf('busy.bin', randomBytes(CHUNK * 2)))
      .catch((caught) => caught)
    assert.instanceOf(error, UploadError)
    assert.equal(error.status, 503)
    assert.isTrue(error.retryable)
    assert.lengthOf(retries, 2)
    assert.lengthOf(
      recorder.calls.filter((call) => call.chunkIndex === 1),
      3
    )
  })

  test('an interrupted upload resumes with its state: same file, only the missing chunks', async ({
    assert,
  }) => {
    const share = await newShare()
    const bytes = randomBytes(CHUNK * 8 + 5)
    let offline = false
    const first = recordingFetch((url) => {
      if (url.pathname.endsWith('/files') && Number(url.searchParams.get('chunkIndex')) >= 4)
        offline = true
      return offline ? Promise.reject(new TypeError('network down')) : null
    })
    const state = newUploadState()
    const options = {
      chunkSize: CHUNK,
      baseUrl: baseUrl(),
      headers: { cookie: share.cookie },
      concurrency: 1,
      retries: 0,
    }
    const error = await new ChunkUploader({ ...options, fetch: first.fn })
      .upload(share.id, fileOf('resume.bin', bytes), { state })
      .catch((caught) => caught)
    assert.instanceOf(error, UploadError)
    assert.equal(error.kind, 'network')
    assert.deepEqual([...state.done].sort(), [0, 1, 2, 3])
    assert.equal(state.uploadedBytes, CHUNK * 4)
    const fileId = state.fileId

    const second = recordingFetch()
    const result = await new ChunkUploader({ ...options, fetch: second.fn }).upload(
      share.id,
      fileOf('resume.bin', bytes),
      { state }
    )
    assert.equal(result.id, fileId)
    assert.deepEqual(
      second.calls.map((call) => call.chunkIndex),
      [4, 5, 6, 7, 8]
    )
    await assertStored(assert, share, result.id, bytes)
  })

  test('a 400 unexpected_chunk_index marks the chunks below expectedChunkIndex done and goes on', async ({
    assert,
  }) => {
    const share = await newShare()
    const bytes = randomBytes(CHUNK * 6)
    let rewritten = false
    let answer: unknown = null
    const recorder = recordingFetch((url, init) => {
      // One stale request (a total the server does not know) gets the server's real 400.
      if (!rewritten && url.searchParams.get('chunkIndex') === '4') {
        rewritten = true
        url.searchParams.set('totalChunks', '99')
        return fetch(url, init).then(async (response) => {
          answer = await response.clone().json()
          return response
        })
      }
      return null
    })
    const retries: RetryEvent[] = []
    const uploader = uploaderFor(share, recorder.fn, {
      concurrency: 1,
      onRetry: (event) => retries.push(event),
    })
    const result = await uploader.upload(share.id, fileOf('resync.bin', bytes))

    assert.deepEqual(answer, {
      message: 'Unexpected chunk received',
      error: 'unexpected_chunk_index',
      expectedChunkIndex: 4,
    })
    assert.lengthOf(retries, 1)
    assert.equal(retries[0].error.expectedChunkIndex, 4)
    assert.equal(retries[0].delay, 0)
    await assertStored(assert, share, result.id, bytes)
  })

  test('a refusal such as 413 (share too big) fails at once without retries', async ({
    assert,
  }) => {
    await setConfig('share.maxSize', String(CHUNK * 2))
    const share = await newShare()
    const retries: RetryEvent[] = []
    const recorder = recordingFetch()
    const uploader = uploaderFor(share, recorder.fn, {
      sleep: noSleep,
      onRetry: (event) => retries.push(event),
    })
    const error = await uploader
      .upload(share.id, fileOf('big.bin', randomBytes(CHUNK * 3)))
      .catch((caught) => caught)
    assert.instanceOf(error, UploadError)
    assert.equal(error.status, 413)
    assert.equal(error.message, 'Max share size exceeded')
    assert.isFalse(error.retryable)
    assert.lengthOf(retries, 0)
    assert.lengthOf(recorder.calls, 1)
  })

  test('create, availability and complete helpers speak the share API', async ({ assert }) => {
    const owner = await shareUser()
    const options = {
      fetch: ((input, init) => fetch(input, init)) as FetchFn,
      baseUrl: baseUrl(),
      headers: { cookie: owner.cookie },
    }
    const id = newShareId('helpers')
    assert.isTrue(await isShareIdAvailable(options, id))
    const created = await createShare(options, {
      id,
      expiration: '2-day',
      recipients: [],
      name: 'Holiday',
    })
    assert.deepEqual(Object.keys(created).sort(), ['description', 'expiration', 'id', 'name'])
    assert.equal(created.name, 'Holiday')
    assert.isFalse(await isShareIdAvailable(options, id))

    const taken = await createShare(options, { id, expiration: 'never', recipients: [] }).catch(
      (caught) => caught
    )
    assert.instanceOf(taken, UploadError)
    assert.equal(taken.status, 400)
    assert.equal(taken.message, 'Share id already in use')

    await new ChunkUploader({ ...options, chunkSize: CHUNK }).upload(
      id,
      fileOf('a.txt', Buffer.from('hello'))
    )
    const completed = await completeShare(options, id)
    assert.equal(completed.id, id)
    // The database keeps whole seconds.
    assert.equal(
      Math.floor(Date.parse(completed.expiration) / 1000),
      Math.floor(Date.parse(created.expiration) / 1000)
    )

    const again = await completeShare(options, id).catch((caught) => caught)
    assert.instanceOf(again, UploadError)
    assert.equal(again.status, 400)
  })
})
