import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { storage } from '#extensions/storage/main'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import ShareSecurity from '#models/share_security'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  forEachDisk,
  newShareId,
  ownerCookieOf,
  sendChunk,
  setConfig,
  shareUser,
  uploadFile,
  SHARE_KEYS,
} from '#tests/helpers/shares'

forEachDisk('Shares | complete and reopen', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('completes with 202 and exactly {id, name, expiration, description}, once', async ({
    assert,
  }) => {
    const { cookie, user } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id, name: 'Name', description: 'Desc' })
    await uploadFile(id, 'a.txt', 'abc', cookie)
    receivedEvents.length = 0
    const response = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(response.status, 202)
    assert.deepEqual(response.json, {
      id,
      name: 'Name',
      expiration: '1970-01-01T00:00:00.000Z',
      description: 'Desc',
    })
    assert.deepInclude(receivedEvents, {
      name: 'share:completed',
      payload: { shareId: id, creatorId: user.id, fileCount: 1, size: 3 },
    })
    const again = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(again.status, 400)
    assert.equal(again.json.message, 'Share already completed')
  })

  test('refuses to complete an unknown share, a share without files or with files still uploading', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const unknown = await api('POST', '/api/shares/unknown-share/complete', { cookie })
    assert.equal(unknown.status, 404)
    assert.equal(unknown.json.message, 'Share not found')
    const id = newShareId()
    await createShare(cookie, { id })
    const empty = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(empty.status, 400)
    await setConfig('share.chunkSize', '4')
    await sendChunk(id, { name: 'half.bin', chunkIndex: 0, totalChunks: 2 }, 'abcd', cookie)
    const unfinished = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(unfinished.status, 400)
    assert.isFalse((await Share.findOrFail(id)).completed)
  })

  test('reopens a completed share for editing (200 share), then accepts files again', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'a' } })
    const reopened = await api('DELETE', `/api/shares/${share.id}/complete`, { cookie })
    assert.equal(reopened.status, 200)
    assert.sameMembers(Object.keys(reopened.json), SHARE_KEYS)
    await uploadFile(share.id, 'b.txt', 'bb', cookie)
    const completed = await api('POST', `/api/shares/${share.id}/complete`, { cookie })
    assert.equal(completed.status, 202)
    const owner = await api('GET', `/api/shares/${share.id}/from-owner`, { cookie })
    assert.deepEqual(
      owner.json.files.map((f: any) => [f.name, f.size]),
      [
        ['a.txt', '1'],
        ['b.txt', '2'],
      ]
    )
    assert.equal(owner.json.size, 3)
  })
})

forEachDisk('Shares | delete and edit', (group, disk) => {
  group.each.teardown(() => cleanupShareTests())

  test('deleting a share or a file drops its stored objects and unfinished uploads', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    // On S3, 1000-byte chunks are staged as objects; 5 MiB chunks are parts of a multipart upload.
    for (const chunkSize of disk.disk === 's3' ? [1000, 5 * 1024 * 1024] : [1000]) {
      await setConfig('share.chunkSize', String(chunkSize))
      const share = await createCompletedShare({ cookie, files: { 'done.txt': 'done' } })
      await api('DELETE', `/api/shares/${share.id}/complete`, { cookie })
      const partial = await sendChunk(
        share.id,
        { name: 'half.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(chunkSize),
        cookie
      )
      const other = await sendChunk(
        share.id,
        { name: 'other.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(chunkSize),
        cookie
      )
      const multipart = disk.disk === 's3' && chunkSize >= 5 * 1024 * 1024
      if (multipart) assert.lengthOf(await disk.pendingUploads(), 2)
      else
        assert.lengthOf(await disk.storedKeys(share.id), 3, 'the file and one chunk of each upload')

      assert.equal(
        (await api('DELETE', `/api/shares/${share.id}/files/${other.json.id}`, { cookie })).status,
        200
      )
      assert.notInclude((await disk.storedKeys(share.id)).join(' '), other.json.id)
      if (multipart) assert.lengthOf(await disk.pendingUploads(), 1)

      assert.equal((await api('DELETE', `/api/shares/${share.id}`, { cookie })).status, 200)
      assert.deepEqual(await disk.storedKeys(share.id), [], `chunks of ${chunkSize}`)
      assert.deepEqual(await disk.pendingUploads(), [])
      assert.isNull(await ShareFile.find(partial.json.id))
    }
  })

  test('deletes a share with its rows and stored files', async ({ assert }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'a' } })
    const file = await ShareFile.findOrFail(share.fileIds['a.txt'])
    assert.isTrue(await storage.use(file.disk).exists(file.storageKey))
    const response = await api('DELETE', `/api/shares/${share.id}`, { cookie })
    assert.equal(response.status, 200)
    assert.isNull(await Share.find(share.id))
    assert.isNull(await ShareFile.find(file.id))
    assert.isFalse(await storage.use(file.disk).exists(file.storageKey))
  })

  test('deletes one file of a share; a file of another share is 404', async ({ assert }) => {
    const { cookie } = await shareUser()
    const a = await createCompletedShare({ cookie, files: { 'a.txt': 'a', 'b.txt': 'b' } })
    const b = await createCompletedShare({ cookie, files: { 'c.txt': 'c' } })
    const foreign = await api('DELETE', `/api/shares/${a.id}/files/${b.fileIds['c.txt']}`, {
      cookie,
    })
    assert.equal(foreign.status, 404)
    assert.equal(foreign.json.message, 'File not found')
    const response = await api('DELETE', `/api/shares/${a.id}/files/${a.fileIds['a.txt']}`, {
      cookie,
    })
    assert.equal(response.status, 200)
    assert.deepEqual(
      (await ShareFile.query().where('shareId', a.id)).map((f) => f.name),
      ['b.txt']
    )
  })

  test('edits name, description, expiration, password and view limit (ext)', async ({ assert }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'a' } })
    const response = await api('PATCH', `/api/shares/${share.id}`, {
      cookie,
      json: {
        name: 'Renamed',
        description: 'New',
        expiration: '2-hours',
        security: { password: 'pass123', maxViews: 4 },
      },
    })
    assert.equal(response.status, 200)
    assert.equal(response.json.name, 'Renamed')
    assert.equal(response.json.description, 'New')
    assert.isTrue(response.json.hasPassword)
    assert.notEqual(response.json.expiration, '1970-01-01T00:00:00.000Z')
    assert.equal((await ShareSecurity.findByOrFail('shareId', share.id)).maxViews, 4)

    const cleared = await api('PATCH', `/api/shares/${share.id}`, {
      cookie,
      json: { description: null, security: { password: null, maxViews: null } },
    })
    assert.equal(cleared.status, 200)
    assert.isFalse(cleared.json.hasPassword)
    assert.isNull(cleared.json.description)
    assert.equal(cleared.json.name, 'Renamed')
    assert.isNull((await ShareSecurity.findByOrFail('shareId', share.id)).maxViews)

    await setConfig('share.maxExpiration', '1 day')
    const tooLong = await api('PATCH', `/api/shares/${share.id}`, {
      cookie,
      json: { expiration: 'never' },
    })
    assert.equal(tooLong.status, 400)
    assert.equal(tooLong.json.message, 'Expiration date exceeds maximum expiration date')
  })

  test('owner routes refuse other users (403) and visitors (401); admins may act', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const other = await shareUser()
    const admin = await shareUser({ admin: true })
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'a' } })
    for (const [method, path] of [
      ['GET', `/api/shares/${share.id}/from-owner`],
      ['PATCH', `/api/shares/${share.id}`],
      ['DELETE', `/api/shares/${share.id}/complete`],
      ['DELETE', `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`],
      ['DELETE', `/api/shares/${share.id}`],
    ]) {
      const json = method === 'GET' ? undefined : {}
      assert.equal(
        (await api(method, path, { cookie: other.cookie, json })).status,
        403,
        `${method} ${path}`
      )
      assert.equal((await api(method, path, { json })).status, 401, `${method} ${path}`)
    }
    assert.equal(
      (await api('GET', `/api/shares/${share.id}/from-owner`, { cookie: admin.cookie })).status,
      200
    )
    assert.equal(
      (await api('DELETE', `/api/shares/${share.id}`, { cookie: admin.cookie })).status,
      200
    )
  })
})

forEachDisk('Shares | anonymous share ownership', (group) => {
  group.each.setup(() => setConfig('share.allowUnauthenticatedShares', 'true'))
  group.each.teardown(() => cleanupShareTests())

  test('only the browser that created it may upload and complete; nobody but admins may delete it', async ({
    assert,
  }) => {
    const id = newShareId()
    const created = await api('POST', '/api/shares', { json: { id, expiration: '1-day' } })
    const mine = ownerCookieOf(created)!
    const stranger = await api('POST', '/api/shares', {
      json: { id: newShareId(), expiration: '1-day' },
    })
    const theirs = ownerCookieOf(stranger)!

    for (const cookie of [null, theirs]) {
      const upload = await sendChunk(
        id,
        { name: 'x.txt', chunkIndex: 0, totalChunks: 1 },
        'x',
        cookie
      )
      assert.equal(upload.status, 403)
    }
    await uploadFile(id, 'mine.txt', 'mine', mine)
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie: theirs })).status, 403)
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie: mine })).status, 202)
    assert.equal((await api('GET', `/api/shares/${id}/from-owner`, { cookie: mine })).status, 200)
    assert.equal((await api('GET', `/api/shares/${id}/from-owner`, { cookie: theirs })).status, 403)

    for (const cookie of [mine, theirs, (await shareUser()).cookie]) {
      const response = await api('DELETE', `/api/shares/${id}`, { cookie })
      assert.equal(response.status, 403)
      assert.equal(response.json.message, "Anonymous shares can't be deleted")
    }
    const admin = await shareUser({ admin: true })
    assert.equal((await api('DELETE', `/api/shares/${id}`, { cookie: admin.cookie })).status, 200)
  })
})

test.group('Shares | lists', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('my shares: completed and unexpired shares of the caller, in the "my share" shape', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const other = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'a.txt': 'abc' },
      security: { password: 'pw1', maxViews: 7 },
    })
    await createShare(cookie, { id: newShareId() })
    await createCompletedShare({ cookie: other.cookie, files: { 'o.txt': 'o' } })
    const response = await api('GET', '/api/shares', { cookie })
    assert.equal(response.status, 200)
    assert.lengthOf(response.json, 1)
    const [mine] = response.json
    assert.sameMembers(Object.keys(mine), [
      'id',
      'name',
      'expiration',
      'description',
      'size',
      'views',
      'createdAt',
      'recipients',
      'files',
      'security',
    ])
    assert.equal(mine.id, share.id)
    assert.equal(mine.size, 3)
    assert.deepEqual(mine.security, { maxViews: 7, passwordProtected: true })
    assert.deepEqual(mine.files, [{ id: share.fileIds['a.txt'], name: 'a.txt', size: '3' }])
    assert.equal((await api('GET', '/api/shares')).status, 401)
  })

  test('all shares: admins only, in the "admin share" shape', async ({ assert }) => {
    const { cookie, user } = await shareUser()
    const admin = await shareUser({ admin: true })
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'abc' } })
    assert.equal((await api('GET', '/api/shares/all')).status, 401)
    assert.equal((await api('GET', '/api/shares/all', { cookie })).status, 403)
    const response = await api('GET', '/api/shares/all', { cookie: admin.cookie })
    assert.equal(response.status, 200)
    const item = response.json.find((s: any) => s.id === share.id)
    assert.sameMembers(Object.keys(item), [
      'id',
      'name',
      'expiration',
      'description',
      'size',
      'views',
      'createdAt',
      'creator',
    ])
    assert.deepEqual(item.creator, { username: user.username })
    assert.equal(item.size, 3)
  })
})
