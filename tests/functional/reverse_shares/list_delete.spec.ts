import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import {
  api,
  cleanupShareTests,
  forEachDisk,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import {
  completedReverseShareUpload,
  createReverseShare,
  startReverseShareUpload,
  uploadThroughReverseShare,
} from '#tests/helpers/reverse_shares'

const LIST_KEYS = [
  'id',
  'token',
  'link',
  'shareExpiration',
  'maxShareSize',
  'remainingUses',
  'sendEmailNotification',
  'simplified',
  'publicAccess',
  'shares',
]
const MY_SHARE_KEYS = [
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
]

/** Moves a reverse share's expiry into the past. */
async function expire(token: string) {
  const past = DateTime.utc().minus({ minutes: 5 }).toFormat(db.connection().dialect.dateTimeFormat)
  await db.from('reverse_shares').where('token', token).update({ share_expiration: past })
}

test.group('Reverse shares | list', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test("lists the caller's unexpired reverse shares with their completed shares and remaining uses", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const other = await shareUser()
    await setConfig('general.appUrl', 'https://tern.example.com')
    const limited = await createReverseShare(owner.cookie, {
      maxUseCount: 3,
      maxShareSize: '777',
      publicAccess: false,
    })
    const unlimited = await createReverseShare(owner.cookie, {
      sendEmailNotification: true,
      simplified: true,
    })
    const expired = await createReverseShare(owner.cookie, { shareExpiration: '1-day' })
    await createReverseShare(other.cookie)

    const done = await completedReverseShareUpload(
      limited.token,
      { 'b.txt': 'bb', 'a.txt': 'a' },
      { body: { name: 'Done' } }
    )
    await uploadThroughReverseShare(limited.token, { 'c.txt': 'c' })
    await completedReverseShareUpload(expired.token, { 'x.txt': 'x' })
    await expire(expired.token)

    const response = await api('GET', '/api/reverseShares', { cookie: owner.cookie })
    assert.equal(response.status, 200)
    assert.lengthOf(response.json, 2)
    for (const item of response.json) assert.sameMembers(Object.keys(item), LIST_KEYS)
    const byToken = Object.fromEntries(response.json.map((item: any) => [item.token, item]))

    const first = byToken[limited.token]
    assert.equal(first.link, `https://tern.example.com/upload/${limited.token}`)
    assert.equal(first.maxShareSize, '777')
    assert.equal(
      first.remainingUses,
      1,
      'the completed share spent one use, the upload in progress holds one'
    )
    assert.equal(first.shareExpiration, '1970-01-01T00:00:00.000Z')
    assert.isFalse(first.publicAccess)
    assert.isFalse(first.simplified)
    assert.isFalse(first.sendEmailNotification)
    assert.lengthOf(first.shares, 1, 'only completed shares')
    assert.sameMembers(Object.keys(first.shares[0]), MY_SHARE_KEYS)
    assert.equal(first.shares[0].id, done.shareId)
    assert.equal(first.shares[0].name, 'Done')
    assert.equal(first.shares[0].size, 3)
    assert.deepEqual(
      first.shares[0].files.map((file: any) => [file.name, file.size]),
      [
        ['a.txt', '1'],
        ['b.txt', '2'],
      ]
    )

    const second = byToken[unlimited.token]
    assert.isNull(second.remainingUses)
    assert.isTrue(second.sendEmailNotification)
    assert.isTrue(second.simplified)
    assert.isTrue(second.publicAccess)
    assert.deepEqual(second.shares, [])

    const others = await api('GET', '/api/reverseShares', { cookie: other.cookie })
    assert.lengthOf(others.json, 1)
    assert.deepEqual(others.json[0].shares, [])
  })

  test('keeps a used-up reverse share in the list with remainingUses 0', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 1 })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    const response = await api('GET', '/api/reverseShares', { cookie: owner.cookie })
    assert.lengthOf(response.json, 1)
    assert.equal(response.json[0].remainingUses, 0)
    assert.deepEqual(
      response.json[0].shares.map((share: any) => share.id),
      [upload.shareId]
    )
  })

  test('needs a signed-in user (401)', async ({ assert }) => {
    const response = await api('GET', '/api/reverseShares')
    assert.equal(response.status, 401)
    assert.deepEqual(response.json, {
      statusCode: 401,
      message: 'Unauthorized',
      error: 'Unauthorized',
    })
  })
})

forEachDisk('Reverse shares | delete', (group, disk) => {
  group.each.teardown(() => cleanupShareTests())

  test('deletes the reverse share with its shares and their stored files (200)', async ({
    assert,
  }) => {
    await setConfig('share.chunkSize', String(disk.chunkSize))
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const done = await completedReverseShareUpload(token, { 'a.txt': 'aaa' })
    const pending = await startReverseShareUpload(token)
    const firstChunk = await sendChunk(
      pending.shareId,
      { name: 'b.bin', chunkIndex: 0, totalChunks: 2 },
      Buffer.alloc(disk.chunkSize, 1),
      pending.cookie
    )
    assert.equal(firstChunk.status, 201)
    const kept = await createReverseShare(owner.cookie)
    const keptUpload = await completedReverseShareUpload(kept.token, { 'k.txt': 'k' })
    assert.isNotEmpty(await disk.storedKeys(done.shareId))
    assert.isNotEmpty(await disk.storedKeys(pending.shareId))
    const reverseShare = await ReverseShare.findByOrFail('token', token)

    const response = await api('DELETE', `/api/reverseShares/${reverseShare.id}`, {
      cookie: owner.cookie,
    })
    assert.equal(response.status, 200)
    assert.isNull(await ReverseShare.find(reverseShare.id))
    assert.isNull(await Share.find(done.shareId))
    assert.isNull(await Share.find(pending.shareId))
    assert.deepEqual(await disk.storedKeys(done.shareId), [])
    assert.deepEqual(await disk.storedKeys(pending.shareId), [])
    assert.deepEqual(await disk.pendingUploads(), [])
    assert.isNotNull(await Share.find(keptUpload.shareId))
    assert.isNotEmpty(await disk.storedKeys(keptUpload.shareId))
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
  })

  test("answers 403 for someone else's reverse share (as Pingvin), 404 for an unknown one, 401 signed out; admins may delete", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const other = await shareUser()
    const admin = await shareUser({ admin: true })
    const { token } = await createReverseShare(owner.cookie)
    const reverseShare = await ReverseShare.findByOrFail('token', token)

    const foreign = await api('DELETE', `/api/reverseShares/${reverseShare.id}`, {
      cookie: other.cookie,
    })
    assert.equal(foreign.status, 403)
    assert.deepEqual(foreign.json, { statusCode: 403, message: 'Forbidden', error: 'Forbidden' })
    const unknown = await api('DELETE', '/api/reverseShares/00000000-0000-0000-0000-000000000000', {
      cookie: owner.cookie,
    })
    assert.equal(unknown.status, 404)
    assert.deepEqual(unknown.json, {
      statusCode: 404,
      message: 'Reverse share not found',
      error: 'Not Found',
    })
    const signedOut = await api('DELETE', `/api/reverseShares/${reverseShare.id}`)
    assert.equal(signedOut.status, 401)
    assert.isNotNull(await ReverseShare.find(reverseShare.id))

    const byAdmin = await api('DELETE', `/api/reverseShares/${reverseShare.id}`, {
      cookie: admin.cookie,
    })
    assert.equal(byAdmin.status, 200)
    assert.isNull(await ReverseShare.find(reverseShare.id))
  })
})
