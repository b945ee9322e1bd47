import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import { api, cleanupShareTests, joinCookies, shareToken, shareUser } from '#tests/helpers/shares'
import {
  completedReverseShareUpload,
  createReverseShare,
  dbDate,
} from '#tests/helpers/reverse_shares'

test.group('Reverse shares | private shares', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test("without public access only the reverse share's creator (and the share's own creator) may see its shares", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const stranger = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { publicAccess: false })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'abc' })
    const fileId = upload.fileIds['a.txt']
    const privateBody = {
      statusCode: 403,
      message: 'Only the reverse share creator can access this share',
      error: 'private_share',
    }

    for (const cookie of [null, stranger.cookie]) {
      const tokenResponse = (await shareToken(upload.shareId, undefined, cookie)).response
      assert.equal(tokenResponse.status, 403)
      assert.deepEqual(tokenResponse.json, privateBody)
      const file = await api('GET', `/api/shares/${upload.shareId}/files/${fileId}`, { cookie })
      assert.deepEqual(file.json, privateBody)
      const zip = await api('GET', `/api/shares/${upload.shareId}/files/zip`, { cookie })
      assert.deepEqual(zip.json, privateBody)
    }
    assert.equal((await Share.findOrFail(upload.shareId)).views, 0, 'no view was counted for them')

    const ownerToken = await shareToken(upload.shareId, undefined, owner.cookie)
    assert.equal(ownerToken.response.status, 200)
    const asOwner = await api('GET', `/api/shares/${upload.shareId}`, {
      cookie: joinCookies(owner.cookie, ownerToken.cookie),
    })
    assert.equal(asOwner.status, 200)
    assert.equal(asOwner.json.files[0].id, fileId)
    const download = await api('GET', `/api/shares/${upload.shareId}/files/${fileId}`, {
      cookie: joinCookies(owner.cookie, ownerToken.cookie),
    })
    assert.equal(download.status, 200)
    assert.equal(download.bytes.toString(), 'abc')
    const directOwner = await api('GET', `/api/shares/${upload.shareId}/files/zip`, {
      cookie: owner.cookie,
    })
    assert.equal(directOwner.status, 200)

    /** A token leaked to someone else does not help them. */
    for (const cookie of [ownerToken.cookie, joinCookies(stranger.cookie, ownerToken.cookie)]) {
      const leaked = await api('GET', `/api/shares/${upload.shareId}`, { cookie })
      assert.deepEqual(leaked.json, privateBody)
      const meta = await api('GET', `/api/shares/${upload.shareId}/metaData`, { cookie })
      assert.deepEqual(meta.json, privateBody)
      const file = await api('GET', `/api/shares/${upload.shareId}/files/${fileId}`, { cookie })
      assert.deepEqual(file.json, privateBody)
    }

    /** A signed-in uploader still sees their own share. */
    const uploader = await shareUser()
    const own = await completedReverseShareUpload(
      token,
      { 'b.txt': 'b' },
      { cookie: uploader.cookie }
    )
    const uploaderToken = await shareToken(own.shareId, undefined, uploader.cookie)
    assert.equal(uploaderToken.response.status, 200)
    const seen = await api('GET', `/api/shares/${own.shareId}`, {
      cookie: joinCookies(uploader.cookie, uploaderToken.cookie),
    })
    assert.equal(seen.status, 200)
  })

  test('with public access anyone with the link sees the shares', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'abc' })
    const visitor = await shareToken(upload.shareId)
    assert.equal(visitor.response.status, 200)
    const shown = await api('GET', `/api/shares/${upload.shareId}`, { cookie: visitor.cookie })
    assert.equal(shown.status, 200)
    const direct = await api(
      'GET',
      `/api/shares/${upload.shareId}/files/${upload.fileIds['a.txt']}`
    )
    assert.equal(direct.status, 200)
  })
})

test.group('Reverse shares | expiry', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('shares expire with their reverse share; the cleanup jobs remove both, a share with its own expiry stays', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '1-hour' })
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    const share = await Share.findOrFail(upload.shareId)
    assert.equal(share.expiration!.toUTC().toISO(), reverseShare.shareExpiration!.toUTC().toISO())
    const kept = await createReverseShare(owner.cookie, { shareExpiration: '1-hour' })
    const keptUpload = await completedReverseShareUpload(kept.token, { 'k.txt': 'k' })

    const later = DateTime.utc().plus({ hours: 2 })
    await db
      .from('shares')
      .where('id', keptUpload.shareId)
      .update({ expiration: dbDate(later.plus({ days: 1 })) })

    const jobs = await app.container.make(CleanupJobs)
    assert.deepEqual(await jobs.expiredReverseShares(later), [], 'its share is still there')
    assert.deepEqual(await jobs.expiredShares(later), [upload.shareId])
    assert.deepEqual(await jobs.expiredReverseShares(later), [reverseShare.id])
    assert.isNull(await ReverseShare.find(reverseShare.id))
    assert.isNotNull(
      await ReverseShare.findBy('token', kept.token),
      'a share with its own expiry keeps its reverse share'
    )
    assert.isNotNull(await Share.find(keptUpload.shareId))
  })

  test('an expired reverse share is neither listed nor usable', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '1-hour' })
    await db
      .from('reverse_shares')
      .where('token', token)
      .update({ share_expiration: dbDate(DateTime.utc().minus({ seconds: 1 })) })
    assert.deepEqual((await api('GET', '/api/reverseShares', { cookie: owner.cookie })).json, [])
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
  })
})
