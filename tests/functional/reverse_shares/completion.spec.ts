import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  forEachDisk,
  newShareId,
  setConfig,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import {
  completedReverseShareUpload,
  createReverseShare,
  dbDate,
  reverseShareCookie,
  uploadThroughReverseShare,
} from '#tests/helpers/reverse_shares'

/** The stored remainingUses of the reverse share of `token`. */
async function remainingUses(token: string): Promise<number | null> {
  return (await ReverseShare.findByOrFail('token', token)).remainingUses
}

test.group('Reverse shares | completion', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('counts down remainingUses, emits reverse_share:used and answers notifyReverseShareCreator', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 2 })
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    const upload = await uploadThroughReverseShare(
      token,
      { 'a.txt': 'abc' },
      { body: { name: 'Gift' } }
    )
    receivedEvents.length = 0
    const completed = await api('POST', `/api/shares/${upload.shareId}/complete`, {
      cookie: upload.cookie,
    })
    assert.equal(completed.status, 202)
    assert.deepEqual(completed.json, {
      id: upload.shareId,
      name: 'Gift',
      expiration: '1970-01-01T00:00:00.000Z',
      description: null,
      notifyReverseShareCreator: false,
    })
    assert.equal(await remainingUses(token), 1)
    assert.deepInclude(receivedEvents, {
      name: 'reverse_share:used',
      payload: { reverseShareId: reverseShare.id, shareId: upload.shareId },
    })

    await completedReverseShareUpload(token, { 'b.txt': 'b' })
    assert.equal(await remainingUses(token), 0)
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
    const late = await api('POST', '/api/shares', {
      cookie: reverseShareCookie(token),
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(late.status, 403)
  })

  test('an unlimited reverse share stays unlimited; ordinary shares get no notifyReverseShareCreator', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    for (let round = 0; round < 3; round++)
      await completedReverseShareUpload(token, { 'a.txt': 'a' })
    assert.isNull(await remainingUses(token))
    const ordinary = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'a' } })
    const reopened = await api('DELETE', `/api/shares/${ordinary.id}/complete`, {
      cookie: owner.cookie,
    })
    assert.equal(reopened.status, 200)
    const again = await api('POST', `/api/shares/${ordinary.id}/complete`, { cookie: owner.cookie })
    assert.sameMembers(Object.keys(again.json), ['id', 'name', 'expiration', 'description'])
  })

  test('reopening and completing again does not count another use', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 2 })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    assert.equal(await remainingUses(token), 1)
    const reopened = await api('DELETE', `/api/shares/${upload.shareId}/complete`, {
      cookie: upload.cookie,
    })
    assert.equal(reopened.status, 200)
    await uploadFile(upload.shareId, 'b.txt', 'b', upload.cookie)
    const again = await api('POST', `/api/shares/${upload.shareId}/complete`, {
      cookie: upload.cookie,
    })
    assert.equal(again.status, 202)
    assert.isFalse(again.json.notifyReverseShareCreator)
    assert.equal(await remainingUses(token), 1)
  })

  test('a share completed after its reverse share expired is not kept (410)', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '1-day' })
    const upload = await uploadThroughReverseShare(token, { 'a.txt': 'a' })
    await db
      .from('reverse_shares')
      .where('token', token)
      .update({ share_expiration: dbDate(DateTime.utc().minus({ minutes: 1 })) })
    const completed = await api('POST', `/api/shares/${upload.shareId}/complete`, {
      cookie: upload.cookie,
    })
    assert.equal(completed.status, 410)
    assert.equal(completed.json.error, 'reverse_share_unavailable')
    assert.isNull(await Share.find(upload.shareId))
  })
})

forEachDisk('Reverse shares | the last use', (group, disk) => {
  group.each.teardown(() => cleanupShareTests())

  test('uploads begun before uses were taken at creation race for the last use: one 202, the others 410 with nothing stored', async ({
    assert,
  }) => {
    await setConfig('share.chunkSize', String(disk.chunkSize))
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 4 })
    const uploads = []
    for (let index = 0; index < 4; index++) {
      const files = { [`f${index}.bin`]: Buffer.alloc(disk.chunkSize + 7, index) }
      uploads.push(await uploadThroughReverseShare(token, files, { chunkSize: disk.chunkSize }))
    }
    for (const upload of uploads) assert.isNotEmpty(await disk.storedKeys(upload.shareId))
    // As the migration leaves shares still uploading at the upgrade: holding no use; one use left.
    const ids = uploads.map((upload) => upload.shareId)
    await db.from('shares').whereIn('id', ids).update({ reverse_share_use_reserved: false })
    await db.from('reverse_shares').where('token', token).update({ remaining_uses: 1 })
    receivedEvents.length = 0

    const results = await Promise.all(
      uploads.map((upload) =>
        api('POST', `/api/shares/${upload.shareId}/complete`, { cookie: upload.cookie })
      )
    )
    const winners = uploads.filter((_, index) => results[index].status === 202)
    const losers = results.filter((result) => result.status !== 202)
    assert.lengthOf(winners, 1, JSON.stringify(results.map((result) => result.status)))
    for (const loser of losers) {
      assert.equal(loser.status, 410)
      assert.deepEqual(loser.json, {
        statusCode: 410,
        message: 'This reverse share link has no uses left or has expired; the share was not kept',
        error: 'reverse_share_unavailable',
      })
    }
    assert.equal(await remainingUses(token), 0)
    for (const upload of uploads) {
      if (upload === winners[0]) {
        assert.isTrue((await Share.findOrFail(upload.shareId)).completed)
        assert.isNotEmpty(await disk.storedKeys(upload.shareId))
      } else {
        assert.isNull(await Share.find(upload.shareId))
        assert.deepEqual(await disk.storedKeys(upload.shareId), [])
        assert.deepInclude(receivedEvents, {
          name: 'share:deleted',
          payload: { shareId: upload.shareId, reason: 'Reverse share used up' },
        })
      }
    }
    assert.deepEqual(await disk.pendingUploads(), [])
    assert.lengthOf(
      receivedEvents.filter((event) => event.name === 'reverse_share:used'),
      1
    )
    assert.lengthOf(
      receivedEvents.filter((event) => event.name === 'share:completed'),
      1
    )
    const list = await api('GET', '/api/reverseShares', { cookie: owner.cookie })
    assert.deepEqual(
      list.json[0].shares.map((share: any) => share.id),
      [winners[0].shareId]
    )
  })

  test('two uploaders with two uses left both complete', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 2 })
    const first = await uploadThroughReverseShare(token, { 'a.txt': 'a' })
    const second = await uploadThroughReverseShare(token, { 'b.txt': 'b' })
    const results = await Promise.all(
      [first, second].map((upload) =>
        api('POST', `/api/shares/${upload.shareId}/complete`, { cookie: upload.cookie })
      )
    )
    assert.deepEqual(
      results.map((result) => result.status),
      [202, 202]
    )
    assert.equal(await remainingUses(token), 0)
  })
})
