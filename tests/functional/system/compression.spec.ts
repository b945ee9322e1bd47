/**
 * Bytes on the wire, through real HTTP against the test
 * server with node:http (which, unlike fetch, neither asks for nor decodes
 * compressed bodies, so the bytes are the ones on the wire):
 * #middleware/compression_middleware answers pages and JSON in brotli or gzip
 * as Accept-Encoding asks (q=0 respected), answers HEAD with the
 * Content-Encoding and Vary of GET, and never compresses file
 * downloads, ranges or zips; #middleware/hashed_assets_middleware
 * refuses the SSR bundle and Vite's manifests; config/static.ts gives other
 * public files a short max-age with ETag revalidation (the hashed assets themselves
 * are tested on a built folder in tests/unit/http/hashed_assets.spec.ts:
 * the test server serves assets from Vite's dev server; the HEAD group puts
 * one hashed file where the build would).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from '@japa/runner'
import {
  baseUrl,
  cleanupShareTests,
  createCompletedShare,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import { unzip } from '#tests/helpers/zip'
import { decoded, wireRequest as wireTo } from '#tests/helpers/wire'

/** One request to the test server; the body exactly as it came over the socket. */
function wireRequest(path: string, headers: Record<string, string>, method = 'GET') {
  return wireTo(baseUrl(), path, headers, method)
}

/** A page's HTML without what differs between two renders (CSP nonces, CSRF tokens). */
function stable(html: string): string {
  return html.replace(/nonce(=|-)"?[\w+/=]+/g, 'nonce').replace(/[\w-]{40,}/g, 'token')
}

const ENCODINGS: [string, string | undefined][] = [
  ['gzip, deflate, br', 'br'],
  ['gzip', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0.5, gzip;q=1', 'gzip'],
  ['gzip;q=0, br;q=0', undefined],
  ['identity', undefined],
  ['', undefined],
]

test.group('Compression | pages and JSON', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('GET /api/configs comes back in the encoding asked for and decodes to the same JSON', async ({
    assert,
  }) => {
    const plain = await wireRequest('/api/configs', { 'accept-encoding': 'identity' })
    assert.equal(plain.status, 200)
    assert.isAbove(plain.wire.length, 1024, 'the answer is above the compression threshold')
    for (const [acceptEncoding, expected] of ENCODINGS) {
      const response = await wireRequest('/api/configs', { 'accept-encoding': acceptEncoding })
      assert.equal(response.status, 200)
      assert.equal(
        response.headers['content-encoding'],
        expected,
        `Accept-Encoding: ${acceptEncoding}`
      )
      assert.include(response.headers.vary ?? '', 'Accept-Encoding')
      assert.deepEqual(
        JSON.parse(decoded(response).toString('utf8')),
        JSON.parse(plain.wire.toString('utf8'))
      )
      if (expected)
        assert.isBelow(response.wire.length, plain.wire.length / 2, `${expected} is much smaller`)
    }
  })

  test('a visitor share page comes back compressed per Accept-Encoding, the same HTML decoded', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'hello' } })
    const plain = await wireRequest(`/share/${share.id}`, {
      'accept-encoding': 'identity',
      'accept': 'text/html',
    })
    assert.equal(plain.status, 200)
    assert.match(plain.headers['content-type'] ?? '', /^text\/html/)
    assert.isUndefined(plain.headers['content-encoding'])
    for (const [acceptEncoding, expected] of ENCODINGS) {
      const response = await wireRequest(`/share/${share.id}`, {
        'accept-encoding': acceptEncoding,
        'accept': 'text/html',
      })
      assert.equal(response.status, 200)
      assert.equal(
        response.headers['content-encoding'],
        expected,
        `Accept-Encoding: ${acceptEncoding}`
      )
      assert.isUndefined(
        expected ? response.headers['content-length'] : undefined,
        'no stale Content-Length'
      )
      assert.equal(stable(decoded(response).toString('utf8')), stable(plain.wire.toString('utf8')))
      if (expected) assert.isBelow(response.wire.length, plain.wire.length / 2)
    }
  })
})

test.group('Compression | HEAD answers with the headers of GET', (group) => {
  /** A file named like Vite's hashed output, answered by the hashed-assets middleware. */
  let asset = ''
  group.setup(async () => {
    const root = join(process.cwd(), 'public', 'assets')
    const created = await mkdir(root, { recursive: true })
    const name = `head-check-${randomBytes(6).toString('base64url')}.js`
    await writeFile(
      join(root, name),
      `export const lines = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `line ${i % 20}`))}\n`
    )
    asset = `/assets/${name}`
    return () => rm(created ?? join(root, name), { recursive: true, force: true })
  })
  group.each.teardown(() => cleanupShareTests())

  const PAGES: { name: string; path: () => Promise<string>; accept?: string }[] = [
    { name: 'the API JSON', path: async () => '/api/configs' },
    { name: 'a page', path: async () => '/auth/signIn', accept: 'text/html' },
    {
      name: 'a share page',
      path: async () => {
        const { cookie } = await shareUser()
        return `/share/${(await createCompletedShare({ cookie, files: { 'a.txt': 'hello' } })).id}`
      },
      accept: 'text/html',
    },
    { name: 'a hashed asset', path: async () => asset },
  ]

  test('{name}: the Content-Encoding and Vary of GET, no body')
    .with(PAGES)
    .run(async ({ assert }, page) => {
      const path = await page.path()
      for (const acceptEncoding of ['br, gzip', 'gzip', 'identity', '']) {
        const headers = {
          'accept-encoding': acceptEncoding,
          ...(page.accept ? { accept: page.accept } : {}),
        }
        const get = await wireRequest(path, headers)
        const head = await wireRequest(path, headers, 'HEAD')
        const label = `${path}, Accept-Encoding: ${acceptEncoding}`
        assert.equal(get.status, 200, label)
        assert.equal(head.status, 200, label)
        assert.equal(head.headers['content-encoding'], get.headers['content-encoding'], label)
        assert.equal(head.headers.vary, get.headers.vary, label)
        assert.equal(head.headers['content-type'], get.headers['content-type'], label)
        assert.include(get.headers.vary ?? '', 'Accept-Encoding', label)
        if (acceptEncoding.includes('gzip'))
          assert.isDefined(get.headers['content-encoding'], label)
        assert.lengthOf(head.wire, 0, label)
      }
    })
})

test.group('Compression | downloads stay as they are', (group) => {
  group.each.teardown(() => cleanupShareTests())

  // Compressible text (text/plain, far above the threshold) that a compressor would shrink.
  const TEXT = Buffer.from(
    'All work and no play makes Jack a dull boy.\n'.repeat(2000) + randomBytes(16).toString('hex')
  )

  async function sharedText() {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'notes.txt': TEXT, 'more.txt': TEXT },
    })
    const token = (await shareToken(share.id)).cookie!
    return { share, token, path: `/api/shares/${share.id}/files/${share.fileIds['notes.txt']}` }
  }

  test('a share file download: exact bytes and Content-Length, not compressed', async ({
    assert,
  }) => {
    const { token, path } = await sharedText()
    for (const acceptEncoding of ['gzip, deflate, br', 'gzip', 'identity']) {
      const response = await wireRequest(path, {
        'accept-encoding': acceptEncoding,
        'cookie': token,
      })
      assert.equal(response.status, 200)
      assert.match(response.headers['content-type'] ?? '', /^text\/plain/)
      assert.isUndefined(response.headers['content-encoding'], `Accept-Encoding: ${acceptEncoding}`)
      assert.equal(response.headers['content-length'], String(TEXT.length))
      assert.isTrue(response.wire.equals(TEXT))
    }
  })

  test('a ranged download: 206 with the exact bytes, not compressed', async ({ assert }) => {
    const { token, path } = await sharedText()
    const response = await wireRequest(path, {
      'accept-encoding': 'gzip, br',
      'cookie': token,
      'range': 'bytes=100-5099',
    })
    assert.equal(response.status, 206)
    assert.isUndefined(response.headers['content-encoding'])
    assert.equal(response.headers['content-range'], `bytes 100-5099/${TEXT.length}`)
    assert.equal(response.headers['content-length'], '5000')
    assert.isTrue(response.wire.equals(TEXT.subarray(100, 5100)))
  })

  test('HEAD of a download keeps its Content-Length', async ({ assert }) => {
    const { token, path } = await sharedText()
    const response = await wireRequest(
      path,
      { 'accept-encoding': 'gzip, br', 'cookie': token },
      'HEAD'
    )
    assert.equal(response.status, 200)
    assert.isUndefined(response.headers['content-encoding'])
    assert.equal(response.headers['content-length'], String(TEXT.length))
  })

  test('the zip of a share is not compressed again', async ({ assert }) => {
    const { share, token } = await sharedText()
    const response = await wireRequest(`/api/shares/${share.id}/files/zip`, {
      'accept-encoding': 'gzip, br',
      'cookie': token,
    })
    assert.equal(response.status, 200)
    assert.equal(response.headers['content-type'], 'application/zip')
    assert.isUndefined(response.headers['content-encoding'])
    const entries = await unzip(response.wire)
    assert.deepEqual(Object.keys(entries).sort(), ['more.txt', 'notes.txt'])
    assert.isTrue(entries['notes.txt'].bytes.equals(TEXT))
  })
})

test.group('Compression | the server-rendering bundle and manifests are not public', () => {
  test('{$self} answers 404')
    .with([
      '/assets/server/ssr.js',
      '/assets/server/.vite/manifest.json',
      '/assets/.vite/manifest.json',
      '/assets/%2Evite/manifest.json',
      '/assets/x/../server/ssr.js',
      '/assets/./server/ssr.js',
      '/assets//server/ssr.js',
      '/assets/server%2Fssr.js',
    ])
    .run(async ({ assert }, path) => {
      const response = await wireRequest(path, { 'accept-encoding': 'identity' })
      assert.equal(response.status, 404)
      assert.notInclude(response.wire.toString('utf8'), 'renderToString')
    })
})

test.group('Compression | other public files', () => {
  test('/img/logo.svg: a short max-age, then revalidated by ETag (304)', async ({ assert }) => {
    const first = await wireRequest('/img/logo.svg', { 'accept-encoding': 'gzip, br' })
    assert.equal(first.status, 200)
    assert.equal(first.headers['cache-control'], 'public, max-age=600, must-revalidate')
    assert.isString(first.headers.etag)
    assert.include(decoded(first).toString('utf8'), '<svg')
    const again = await wireRequest('/img/logo.svg', {
      'accept-encoding': 'gzip, br',
      'if-none-match': first.headers.etag!,
    })
    assert.equal(again.status, 304)
    assert.lengthOf(again.wire, 0)
  })
})
