import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import Share from '#models/share'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import ShareFile from '#models/share_file'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  forEachDisk,
  newShareId,
  setConfig,
  shareToken,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import { unzip } from '#tests/helpers/zip'

const CONTENT = randomBytes(5000)

async function ownedShare(
  files: Record<string, Buffer | string>,
  security?: { password?: string; maxViews?: number }
) {
  const { cookie } = await shareUser()
  const share = await createCompletedShare({ cookie, files, security })
  const token = security?.password
    ? await shareToken(share.id, security.password)
    : await shareToken(share.id)
  return { ...share, token: token.cookie! }
}

forEachDisk('Shares | file downloads', (group, disk) => {
  group.each.teardown(() => cleanupShareTests())

  test('serves whole files and ranges of files assembled from chunks, read from their disk', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    // On S3, 1000-byte chunks are staged then joined; 5 MiB chunks are multipart parts.
    const chunkSizes = disk.disk === 's3' ? [1000, 5 * 1024 * 1024] : [1000]
    for (const chunkSize of chunkSizes) {
      await setConfig('share.chunkSize', String(chunkSize))
      const id = newShareId()
      await createShare(cookie, { id })
      const content = randomBytes(chunkSize * 2 + 1234)
      const fileId = await uploadFile(id, 'chunks.bin', content, cookie, chunkSize)
      assert.equal((await ShareFile.findOrFail(fileId)).disk, disk.disk)
      await api('POST', `/api/shares/${id}/complete`, { cookie })
      const token = (await shareToken(id)).cookie
      const path = `/api/shares/${id}/files/${fileId}`
      const whole = await api('GET', path, { cookie: token })
      assert.equal(whole.status, 200)
      assert.isTrue(whole.bytes.equals(content), `whole file, chunks of ${chunkSize}`)
      for (const [start, end] of [
        [chunkSize - 10, chunkSize + 9],
        [chunkSize * 2, chunkSize * 2 + 1233],
        [0, 0],
        [5, 5],
      ]) {
        const partial = await api('GET', path, {
          cookie: token,
          headers: { range: `bytes=${start}-${end}` },
        })
        assert.equal(partial.status, 206)
        assert.equal(
          partial.headers.get('content-range'),
          `bytes ${start}-${end}/${content.length}`
        )
        assert.isTrue(
          partial.bytes.equals(content.subarray(start, end + 1)),
          `bytes ${start}-${end}, chunks of ${chunkSize}`
        )
      }
      const tail = await api('GET', path, { cookie: token, headers: { range: 'bytes=-100' } })
      assert.isTrue(tail.bytes.equals(content.subarray(content.length - 100)))
    }
  })

  test('streams the file with the contract headers', async ({ assert }) => {
    const share = await ownedShare({ 'photo.png': CONTENT })
    receivedEvents.length = 0
    const response = await api(
      'GET',
      `/api/shares/${share.id}/files/${share.fileIds['photo.png']}`,
      { cookie: share.token }
    )
    assert.equal(response.status, 200)
    assert.isTrue(response.bytes.equals(CONTENT))
    assert.equal(response.headers.get('content-type'), 'image/png')
    assert.equal(response.headers.get('content-length'), String(CONTENT.length))
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="photo.png"')
    assert.equal(response.headers.get('content-security-policy'), 'sandbox')
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
    assert.equal(response.headers.get('accept-ranges'), 'bytes')
    assert.isString(response.headers.get('etag'))
    assert.isString(response.headers.get('last-modified'))
    assert.deepInclude(receivedEvents, {
      name: 'share:downloaded',
      payload: { shareId: share.id, fileId: share.fileIds['photo.png'] },
    })
    assert.equal(
      (await Share.findOrFail(share.id)).views,
      1,
      'downloads with a token cookie count no view'
    )
  })

  test('inline with download=false, RFC 5987 names, fallback type', async ({ assert }) => {
    const share = await ownedShare({ 'Ünïcode résumé.xyz123': 'x' })
    const fileId = share.fileIds['Ünïcode résumé.xyz123']
    const response = await api('GET', `/api/shares/${share.id}/files/${fileId}?download=false`, {
      cookie: share.token,
    })
    assert.equal(response.headers.get('content-type'), 'application/octet-stream')
    assert.equal(
      response.headers.get('content-disposition'),
      `inline; filename="_n_code r_sum_.xyz123"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20r%C3%A9sum%C3%A9.xyz123`
    )
  })

  test('answers a single Range with 206 and the exact bytes, 416 when unsatisfiable', async ({
    assert,
  }) => {
    const share = await ownedShare({ 'data.bin': CONTENT })
    const path = `/api/shares/${share.id}/files/${share.fileIds['data.bin']}`
    const partial = await api('GET', path, {
      cookie: share.token,
      headers: { range: 'bytes=100-1099' },
    })
    assert.equal(partial.status, 206)
    assert.equal(partial.headers.get('content-range'), `bytes 100-1099/${CONTENT.length}`)
    assert.equal(partial.headers.get('content-length'), '1000')
    assert.isTrue(partial.bytes.equals(CONTENT.subarray(100, 1100)))
    const suffix = await api('GET', path, { cookie: share.token, headers: { range: 'bytes=-10' } })
    assert.isTrue(suffix.bytes.equals(CONTENT.subarray(CONTENT.length - 10)))
    const open = await api('GET', path, { cookie: share.token, headers: { range: 'bytes=4990-' } })
    assert.equal(open.status, 206)
    assert.isTrue(open.bytes.equals(CONTENT.subarray(4990)))
    const bad = await api('GET', path, {
      cookie: share.token,
      headers: { range: 'bytes=9000-9999' },
    })
    assert.equal(bad.status, 416)
    assert.equal(bad.headers.get('content-range'), `bytes */${CONTENT.length}`)
  })

  test('answers HEAD with the headers only, and 304 for a matching ETag', async ({ assert }) => {
    const share = await ownedShare({ 'data.bin': CONTENT })
    const path = `/api/shares/${share.id}/files/${share.fileIds['data.bin']}`
    const head = await api('HEAD', path, { cookie: share.token })
    assert.equal(head.status, 200)
    assert.equal(head.headers.get('content-length'), String(CONTENT.length))
    assert.equal(head.bytes.length, 0)
    const etag = head.headers.get('etag')!
    const cached = await api('GET', path, {
      cookie: share.token,
      headers: { 'if-none-match': etag },
    })
    assert.equal(cached.status, 304)
    assert.equal(cached.bytes.length, 0)
    const changed = await api('GET', path, {
      cookie: share.token,
      headers: { 'if-none-match': '"other"' },
    })
    assert.equal(changed.status, 200)
  })

  test('refuses a file id of another share with 404 "File not found"', async ({ assert }) => {
    const a = await ownedShare({ 'a.txt': 'a' })
    const b = await ownedShare({ 'b.txt': 'b' })
    const response = await api('GET', `/api/shares/${a.id}/files/${b.fileIds['b.txt']}`, {
      cookie: a.token,
    })
    assert.equal(response.status, 404)
    assert.equal(response.json.message, 'File not found')
  })

  test('direct links work without a cookie for open shares and count one view each', async ({
    assert,
  }) => {
    const share = await ownedShare({ 'a.txt': 'abc' }, { maxViews: 3 })
    const path = `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`
    assert.equal((await api('HEAD', path)).status, 200, 'HEAD counts no view')
    const first = await api('GET', path)
    assert.equal(first.status, 200)
    assert.equal(first.bytes.toString(), 'abc')
    assert.equal((await Share.findOrFail(share.id)).views, 2)
    assert.equal((await api('GET', path)).status, 200)
    const over = await api('GET', path)
    assert.equal(over.status, 403)
    assert.equal(over.json.error, 'share_max_views_exceeded')
    assert.equal(
      (await api('GET', path, { cookie: share.token })).status,
      200,
      'a token still works'
    )
  })

  test('direct links to a password share answer 403 share_password_required', async ({
    assert,
  }) => {
    const share = await ownedShare({ 'a.txt': 'abc' }, { password: 'secret' })
    const path = `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`
    const response = await api('GET', path)
    assert.equal(response.status, 403)
    assert.equal(response.json.error, 'share_password_required')
    assert.equal((await api('GET', path, { cookie: share.token })).status, 200)
  })

  test('runs download:before_serve: handlers add headers', async ({ assert }) => {
    const share = await ownedShare({ 'fixture-x.txt': 'x' })
    const response = await api(
      'GET',
      `/api/shares/${share.id}/files/${share.fileIds['fixture-x.txt']}`,
      { cookie: share.token }
    )
    assert.equal(response.headers.get('x-fixture'), 'served')
  })
})

forEachDisk('Shares | zip downloads', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('streams every file of the share as a zip', async ({ assert }) => {
    const share = await ownedShare({ 'a.txt': 'alpha', 'dir.bin': CONTENT, 'empty.txt': '' })
    const response = await api('GET', `/api/shares/${share.id}/files/zip`, { cookie: share.token })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'application/zip')
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="${share.id}.zip"`
    )
    assert.equal(response.headers.get('content-security-policy'), 'sandbox')
    const entries = await unzip(response.bytes)
    assert.sameMembers(Object.keys(entries), ['a.txt', 'dir.bin', 'empty.txt'])
    assert.equal(entries['a.txt'].bytes.toString(), 'alpha')
    assert.isTrue(entries['dir.bin'].bytes.equals(CONTENT))
    assert.equal(entries['empty.txt'].bytes.length, 0)
    assert.equal(entries['a.txt'].method, 8, 'deflated at the default level')
  })

  test('stores without compression at share.zipCompressionLevel 0', async ({ assert }) => {
    await setConfig('share.zipCompressionLevel', '0')
    const share = await ownedShare({ 'a.txt': 'alpha alpha alpha alpha' })
    const entries = await unzip(
      (await api('GET', `/api/shares/${share.id}/files/zip`, { cookie: share.token })).bytes
    )
    assert.equal(entries['a.txt'].method, 0)
    assert.equal(entries['a.txt'].bytes.toString(), 'alpha alpha alpha alpha')
  })

  test('needs a token or a direct link like files', async ({ assert }) => {
    const locked = await ownedShare({ 'a.txt': 'a' }, { password: 'secret' })
    assert.equal(
      (await api('GET', `/api/shares/${locked.id}/files/zip`)).json.error,
      'share_password_required'
    )
    const open = await ownedShare({ 'a.txt': 'a' })
    const direct = await api('GET', `/api/shares/${open.id}/files/zip`)
    assert.equal(direct.status, 200)
    assert.equal((await Share.findOrFail(open.id)).views, 2)
  })
})
