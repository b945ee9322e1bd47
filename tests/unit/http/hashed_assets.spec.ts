/**
 * #services/http/hashed_assets on a folder laid out like Vite's production
 * build (hashed chunks, a file without a hash, `server/` and `.vite/`),
 * served by a node:http server on loopback the way
 * #middleware/hashed_assets_middleware writes its answers (the test server
 * itself serves assets from Vite's dev server, so the production behaviour is
 * tested here): immutable caching, brotli/gzip/identity per Accept-Encoding
 * decoding to the same bytes, 304 on If-None-Match, a rebuild in place
 * noticed, the private folders and paths outside the root refused, and the
 * memory bound kept.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, mkdir, rm, writeFile, utimes } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { decoded, wireRequest } from '#tests/helpers/wire'
import HashedAssets, { type HashedAssetsOptions } from '#services/http/hashed_assets'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=600, must-revalidate'

/** JavaScript-like text that compresses well, different for each call. */
function script(lines = 2000): Buffer {
  const seed = randomBytes(8).toString('hex')
  return Buffer.from(
    Array.from(
      { length: lines },
      (_, i) => `export const value${i} = ${JSON.stringify(`${seed}-${i % 50}`)};\n`
    ).join('')
  )
}

interface Served {
  root: string
  assets: HashedAssets
  url: string
  close(): Promise<void>
}

/** A temporary build folder and a loopback server answering /assets/* through HashedAssets (404 when it passes). */
async function serve(options: Partial<HashedAssetsOptions> = {}): Promise<Served> {
  // The build folder inside a temporary one, so a file "beside" it stays ours.
  const base = await mkdtemp(join(tmpdir(), 'tern-assets-'))
  const root = join(base, 'assets')
  await mkdir(root)
  const assets = new HashedAssets({
    root,
    privateFolders: ['server/', '.vite/'],
    maxCacheBytes: 64 * 1024 * 1024,
    maxFileBytes: 8 * 1024 * 1024,
    cacheControl: IMMUTABLE,
    revalidateCacheControl: REVALIDATE,
    ...options,
  })
  const server = http.createServer(async (req, res) => {
    const relPath = (req.url ?? '').split('?')[0].replace(/^\/assets\//, '')
    const answer = assets.isPrivate(relPath)
      ? null
      : await assets.answer(relPath, { method: req.method!, headers: req.headers })
    if (!answer) {
      res.writeHead(404).end('not here')
      return
    }
    res.writeHead(answer.status, answer.headers).end(answer.body ?? undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    root,
    assets,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      await rm(base, { recursive: true, force: true })
    },
  }
}

function get(served: Served, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return wireRequest(served.url, path, headers, method)
}

test.group('Hashed assets | production build folder', (group) => {
  let served: Served
  group.each.setup(async () => {
    served = await serve()
    return () => served.close()
  })

  test('a hashed chunk: immutable for a year, br/gzip/identity as asked, the same bytes decoded', async ({
    assert,
  }) => {
    const content = script()
    await writeFile(join(served.root, 'main-COZxTlF1.js'), content)
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br;q=0', undefined],
      ['identity', undefined],
      ['', undefined],
    ]
    for (const [acceptEncoding, expected] of cases) {
      const response = await get(served, '/assets/main-COZxTlF1.js', {
        'accept-encoding': acceptEncoding,
      })
      assert.equal(response.status, 200)
      assert.equal(
        response.headers['content-encoding'],
        expected,
        `Accept-Encoding: ${acceptEncoding}`
      )
      assert.equal(response.headers['cache-control'], IMMUTABLE)
      assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8')
      assert.equal(response.headers.vary, 'Accept-Encoding')
      assert.equal(response.headers['content-length'], String(response.wire.length))
      assert.isTrue(decoded(response).equals(content))
      if (expected) assert.isBelow(response.wire.length, content.length / 3)
    }
  })

  test('304 to If-None-Match with the tag of any form, 200 to another tag', async ({ assert }) => {
    await writeFile(
      join(served.root, 'style-Dk3l9QaZ.css'),
      `body { color: red; }\n${'.a{margin:0}\n'.repeat(500)}`
    )
    const path = '/assets/style-Dk3l9QaZ.css'
    const plain = await get(served, path, { 'accept-encoding': 'identity' })
    const brotli = await get(served, path, { 'accept-encoding': 'br' })
    assert.equal(brotli.headers['content-encoding'], 'br')
    for (const tag of [
      plain.headers.etag!,
      brotli.headers.etag!,
      `W/${plain.headers.etag}`,
      '*',
      `"other", ${brotli.headers.etag}`,
    ]) {
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        const response = await get(served, path, {
          'accept-encoding': acceptEncoding,
          'if-none-match': tag,
        })
        assert.equal(
          response.status,
          304,
          `If-None-Match: ${tag}, Accept-Encoding: ${acceptEncoding}`
        )
        assert.lengthOf(response.wire, 0)
        assert.equal(response.headers['cache-control'], IMMUTABLE)
      }
    }
    const other = await get(served, path, {
      'accept-encoding': 'br',
      'if-none-match': '"something-else"',
    })
    assert.equal(other.status, 200)
  })

  test('HEAD: the headers of GET, Content-Length included, and no body', async ({ assert }) => {
    const content = script()
    await writeFile(join(served.root, 'chunk-Bq7Xk2Lm.js'), content)
    const getAnswer = await get(served, '/assets/chunk-Bq7Xk2Lm.js', { 'accept-encoding': 'br' })
    const head = await get(served, '/assets/chunk-Bq7Xk2Lm.js', { 'accept-encoding': 'br' }, 'HEAD')
    assert.equal(head.status, 200)
    assert.lengthOf(head.wire, 0)
    assert.equal(head.headers['content-length'], getAnswer.headers['content-length'])
    assert.equal(head.headers['content-encoding'], 'br')
  })

  test('files not worth compressing go out as they are; names without a hash are revalidated', async ({
    assert,
  }) => {
    const png = randomBytes(5000)
    await writeFile(join(served.root, 'logo-8dJk2LmQ.png'), png)
    const image = await get(served, '/assets/logo-8dJk2LmQ.png', { 'accept-encoding': 'br, gzip' })
    assert.equal(image.status, 200)
    assert.isUndefined(image.headers['content-encoding'])
    assert.equal(image.headers['content-type'], 'image/png')
    assert.isTrue(image.wire.equals(png))

    await writeFile(join(served.root, 'tiny-Qw8e7R6t.js'), 'export {}\n')
    const tiny = await get(served, '/assets/tiny-Qw8e7R6t.js', { 'accept-encoding': 'br, gzip' })
    assert.isUndefined(tiny.headers['content-encoding'], 'below 1 KB')
    assert.equal(tiny.wire.toString(), 'export {}\n')

    await writeFile(join(served.root, 'sw.js'), script(100))
    const unhashed = await get(served, '/assets/sw.js', { 'accept-encoding': 'br' })
    assert.equal(unhashed.status, 200)
    assert.equal(unhashed.headers['cache-control'], REVALIDATE)
    assert.isString(unhashed.headers.etag)
  })

  test('a file rebuilt in place is served anew, with a new tag', async ({ assert }) => {
    const file = join(served.root, 'sw.js')
    const first = script()
    await writeFile(file, first)
    const before = await get(served, '/assets/sw.js', { 'accept-encoding': 'br' })
    assert.isTrue(decoded(before).equals(first))
    const second = script()
    await writeFile(file, second)
    // Same size, so the changed mtime is what tells the versions apart.
    assert.equal(second.length, first.length)
    const later = new Date(Date.now() + 5000)
    await utimes(file, later, later)
    const after = await get(served, '/assets/sw.js', {
      'accept-encoding': 'br',
      'if-none-match': before.headers.etag!,
    })
    assert.equal(after.status, 200)
    assert.isTrue(decoded(after).equals(second))
    assert.notEqual(after.headers.etag, before.headers.etag)
  })

  test('the SSR bundle, the manifests and paths outside the folder are refused: {$self}')
    .with([
      '/assets/server/ssr.js',
      '/assets/.vite/manifest.json',
      '/assets/server/.vite/manifest.json',
      '/assets/%2Evite/manifest.json',
      '/assets/x/../server/ssr.js',
      '/assets/./server/ssr.js',
      '/assets//server/ssr.js',
      '/assets/server%2Fssr.js',
      '/assets/%2e%2e/secret.txt',
      '/assets/..%2Fsecret.txt',
      '/assets/%E0%A4%A',
      '/assets/',
      '/assets/server',
    ])
    .run(async ({ assert }, path) => {
      await mkdir(join(served.root, 'server/.vite'), { recursive: true })
      await mkdir(join(served.root, '.vite'), { recursive: true })
      await writeFile(
        join(served.root, 'server/ssr.js'),
        'export function render() { return renderToString() }'
      )
      await writeFile(join(served.root, 'server/.vite/manifest.json'), '{"renderToString": 1}')
      await writeFile(join(served.root, '.vite/manifest.json'), '{"renderToString": 1}')
      await writeFile(join(served.root, '../secret.txt'), 'renderToString')
      const response = await get(served, path, { 'accept-encoding': 'identity' })
      assert.equal(response.status, 404)
      assert.notInclude(response.wire.toString(), 'renderToString')
    })
})

test.group('Hashed assets | memory bound', () => {
  test('the cache never holds more than maxCacheBytes; evicted files are still served', async ({
    assert,
  }) => {
    const served = await serve({ maxCacheBytes: 150_000 })
    try {
      const contents: Buffer[] = []
      for (let i = 0; i < 6; i++) {
        contents.push(script(1000))
        await writeFile(join(served.root, `part${i}-Ab12Cd3${i}.js`), contents[i])
      }
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 6; i++) {
          const response = await get(served, `/assets/part${i}-Ab12Cd3${i}.js`, {
            'accept-encoding': 'gzip',
          })
          assert.equal(response.status, 200)
          assert.isTrue(decoded(response).equals(contents[i]))
          assert.isAtMost(served.assets.cachedBytes, 150_000)
        }
      }
      assert.isAbove(served.assets.cachedBytes, 0)
    } finally {
      await served.close()
    }
  })

  test('files above maxFileBytes are left to the static server', async ({ assert }) => {
    const served = await serve({ maxFileBytes: 10_000 })
    try {
      await writeFile(join(served.root, 'big-Zx9Yw8Vu.js'), script(1000))
      const response = await get(served, '/assets/big-Zx9Yw8Vu.js', { 'accept-encoding': 'br' })
      assert.equal(response.status, 404, 'passed on')
      assert.equal(served.assets.cachedBytes, 0)
    } finally {
      await served.close()
    }
  })
})
