/**
 * A reverse share's uses are taken when an uploader's share is created, not
 * when it is completed: a burst of visitors on a link with 5 uses gets
 * exactly 5 shares, and the others are refused before they can store a byte.
 * A share removed before it was ever completed (expired, abandoned and
 * cleaned up, deleted) gives its use back; a completed one keeps it. An
 * uploader who starts again takes over the use of its given-up share.
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { storage } from '#extensions/storage/main'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import {
  api,
  cleanupShareTests,
  newShareId,
  ownerCookieOf,
  sendChunk,
  shareUser,
  uploadFile,
  type RawResponse,
} from '#tests/helpers/shares'
import {
  createReverseShare,
  dbDate,
  reverseShareCookie,
  setCookieLine,
  startReverseShareUpload,
  uploadThroughReverseShare,
} from '#tests/helpers/reverse_shares'

const VISITORS = 100
const USES = 5

/** The stored remainingUses of the reverse share of `token`. */
async function remainingUses(token: string): Promise<number | null> {
  return (await ReverseShare.findByOrFail('token', token)).remainingUses
}

/**
 * Sends a request again when it went out on a pooled keep-alive connection
 * the server was closing (ECONNRESET before the request was read), as clients do.
 */
async function once(send: () => Promise<RawResponse>): Promise<RawResponse> {
  try {
    return await send()
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
    return send()
  }
}

/** A visitor's lookup of the link (`GET /api/reverseShares/:token`): the cookie it sets, as a Cookie header. */
async function lookUp(token: string): Promise<string> {
  const lookup = await once(() => api('GET', `/api/reverseShares/${token}`))
  if (lookup.status !== 200) throw new Error(`lookup: ${lookup.status} ${lookup.bytes}`)
  return reverseShareCookie(lookup.cookies.reverse_share_token)
}

/** A visitor's share creation with the cookie of its lookup. */
async function create(cookie: string) {
  const id = newShareId('burst')
  const created = await once(() =>
    api('POST', '/api/shares', { cookie, json: { id, expiration: '1-day', recipients: [] } })
  )
  return { id, created, ownerCookie: ownerCookieOf(created) }
}

/** Every stored key under `shares/<shareId>` on the local disk. */
async function storedKeys(shareId: string): Promise<string[]> {
  const { objects } = await storage.use('local').listAll(`shares/${shareId}`, { recursive: true })
  return [...objects].map((object) => ('key' in object ? object.key : object.prefix))
}

test.group('Reverse shares | uses are taken when a share is created', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('100 visitors at once on a link with 5 uses: 5 shares, the others refused before a byte', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: USES })
    const reverseShare = await ReverseShare.findByOrFail('token', token)

    // Every visitor has opened the page (the link is live for all of them), then they all create at once.
    const cookies = await Promise.all(Array.from({ length: VISITORS }, () => lookUp(token)))
    const visits = await Promise.all(cookies.map((cookie) => create(cookie)))
    const winners = visits.filter((visit) => visit.created.status === 201)
    const losers = visits.filter((visit) => visit.created.status !== 201)
    assert.lengthOf(winners, USES, JSON.stringify(visits.map((visit) => visit.created.status)))
    for (const loser of losers) {
      assert.equal(loser.created.status, 403)
      assert.deepEqual(loser.created.json, {
        statusCode: 403,
        message: 'Reverse share token not found',
        error: 'Forbidden',
      })
      assert.match(
        setCookieLine(loser.created, 'reverse_share_token') ?? '',
        /^reverse_share_token=;.*(Max-Age=-1|Expires=Thu, 01 Jan 1970)/i
      )
    }
    assert.equal(await remainingUses(token), 0, 'every use is taken by an upload in progress')
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
    const ids = (await Share.query().where('reverse_share_id', reverseShare.id)).map(
      (share) => share.id
    )
    assert.sameMembers(
      ids,
      winners.map((winner) => winner.id)
    )

    // A refused visitor has no share to send a byte to.
    for (const loser of losers.slice(0, 3)) {
      const chunk = await sendChunk(
        loser.id,
        { name: 'x.bin', chunkIndex: 0, totalChunks: 1 },
        'bytes',
        loser.ownerCookie ?? null
      )
      assert.equal(chunk.status, 404)
      assert.deepEqual(await storedKeys(loser.id), [])
    }
    assert.equal(
      Number(
        (
          await db
            .from('files')
            .whereIn(
              'share_id',
              losers.map((loser) => loser.id)
            )
            .count('* as n')
        )[0].n
      ),
      0
    )

    // Each winner uploads and completes: its use was reserved, so every completion is kept.
    const completions = await Promise.all(
      winners.map(async (winner) => {
        await uploadFile(winner.id, 'a.txt', winner.id, winner.ownerCookie!)
        return api('POST', `/api/shares/${winner.id}/complete`, { cookie: winner.ownerCookie })
      })
    )
    assert.deepEqual(
      completions.map((completion) => completion.status),
      Array(USES).fill(202)
    )
    assert.equal(await remainingUses(token), 0)
    const list = await api('GET', '/api/reverseShares', { cookie: owner.cookie })
    assert.sameMembers(
      list.json[0].shares.map((share: { id: string }) => share.id),
      winners.map((winner) => winner.id)
    )
    assert.equal(list.json[0].remainingUses, 0)
  })

  test('a share that expires or is abandoned unfinished gives its use back', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 1 })
    const first = await uploadThroughReverseShare(token, { 'a.txt': 'abc' })
    assert.equal(await remainingUses(token), 0)
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
    const refused = await api('POST', '/api/shares', {
      cookie: reverseShareCookie(token),
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(refused.status, 403)

    // The first upload's share expires before it was completed.
    await db
      .from('shares')
      .where('id', first.shareId)
      .update({ expiration: dbDate(DateTime.utc().minus({ minutes: 1 })) })
    const jobs = await app.container.make(CleanupJobs)
    assert.deepEqual(await jobs.expiredShares(), [first.shareId])
    assert.equal(await remainingUses(token), 1)

    // The next upload is abandoned: the unfinished-share cleanup (a day later) gives the use back.
    const second = await uploadThroughReverseShare(token, { 'b.txt': 'b' })
    assert.equal(await remainingUses(token), 0)
    assert.deepEqual(await jobs.unfinishedShares(DateTime.utc().plus({ days: 2 })), [
      second.shareId,
    ])
    assert.equal(await remainingUses(token), 1)

    // Running the jobs again gives nothing back twice.
    await jobs.expiredShares()
    await jobs.unfinishedShares(DateTime.utc().plus({ days: 2 }))
    assert.equal(await remainingUses(token), 1)
    await startReverseShareUpload(token)
    assert.equal(await remainingUses(token), 0)
  })

  test('an uploader who starts again gets the use its given-up share held; nobody else gets in', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, {
      maxUseCount: 1,
      maxShareSize: '30000000',
    })

    // The visitor's first attempt stores one chunk of two, then fails (a network error, a reload).
    const first = await create(await lookUp(token))
    assert.equal(first.created.status, 201)
    const ownerCookie = first.ownerCookie!
    const half = Buffer.alloc(10_000_000, 1)
    const chunk = await sendChunk(
      first.id,
      { name: 'a.bin', chunkIndex: 0, totalChunks: 2 },
      half,
      ownerCookie
    )
    assert.equal(chunk.status, 201, chunk.bytes.toString())
    const fileId = chunk.json.id
    assert.equal(await remainingUses(token), 0)

    // Anyone else finds the link used up; the same browser may start again.
    assert.equal((await api('GET', `/api/reverseShares/${token}`)).status, 404)
    const lookup = await api('GET', `/api/reverseShares/${token}`, { cookie: ownerCookie })
    assert.equal(lookup.status, 200)
    const page = await api('GET', `/upload/${token}`, { cookie: ownerCookie })
    assert.equal(page.status, 200)
    const again = await create(
      `${reverseShareCookie(lookup.cookies.reverse_share_token)}; ${ownerCookie}`
    )
    assert.equal(again.created.status, 201, again.created.bytes.toString())
    assert.equal(await remainingUses(token), 0, 'the use moved, none was taken')

    // The given-up share takes nothing more, and its use stays with the new one.
    const late = await sendChunk(
      first.id,
      { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: fileId },
      'rest',
      ownerCookie
    )
    assert.isAtLeast(late.status, 400)
    assert.isBelow(late.status, 500)
    await uploadFile(again.id, 'a.bin', 'whole file', ownerCookie)
    assert.equal(
      (await api('POST', `/api/shares/${again.id}/complete`, { cookie: ownerCookie })).status,
      202
    )
    assert.equal(await remainingUses(token), 0)
    assert.equal(
      (await api('GET', `/api/reverseShares/${token}`, { cookie: ownerCookie })).status,
      404,
      'its use is spent'
    )

    // Cleaning up the given-up share gives nothing back.
    const jobs = await app.container.make(CleanupJobs)
    await jobs.expiredShares()
    await jobs.unfinishedShares(DateTime.utc().plus({ days: 2 }))
    assert.isNull(await Share.find(first.id))
    assert.deepEqual(await storedKeys(first.id), [])
    assert.equal(await remainingUses(token), 0)
  })

  test('deleting an unfinished share gives its use back; a completed one keeps it', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const uploader = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 2 })

    const completed = await uploadThroughReverseShare(
      token,
      { 'a.txt': 'a' },
      { cookie: uploader.cookie }
    )
    assert.equal(
      (await api('POST', `/api/shares/${completed.shareId}/complete`, { cookie: uploader.cookie }))
        .status,
      202
    )
    assert.equal(await remainingUses(token), 1)
    assert.equal(
      (await api('DELETE', `/api/shares/${completed.shareId}`, { cookie: uploader.cookie })).status,
      200
    )
    assert.equal(
      await remainingUses(token),
      1,
      'a completed share keeps its use, even once deleted'
    )

    const unfinished = await uploadThroughReverseShare(
      token,
      { 'b.txt': 'b' },
      { cookie: uploader.cookie }
    )
    assert.equal(await remainingUses(token), 0)
    assert.equal(
      (await api('DELETE', `/api/shares/${unfinished.shareId}`, { cookie: uploader.cookie }))
        .status,
      200
    )
    assert.equal(await remainingUses(token), 1)
    assert.isNull(await ShareFile.findBy('shareId', unfinished.shareId))

    // Completed, reopened for editing, then deleted: it was completed, its use stays spent.
    const reopened = await uploadThroughReverseShare(
      token,
      { 'c.txt': 'c' },
      { cookie: uploader.cookie }
    )
    assert.equal(
      (await api('POST', `/api/shares/${reopened.shareId}/complete`, { cookie: uploader.cookie }))
        .status,
      202
    )
    assert.equal(
      (await api('DELETE', `/api/shares/${reopened.shareId}/complete`, { cookie: uploader.cookie }))
        .status,
      200
    )
    assert.equal(
      (await api('DELETE', `/api/shares/${reopened.shareId}`, { cookie: uploader.cookie })).status,
      200
    )
    assert.equal(await remainingUses(token), 0)
  })

  test('a refused creation stores nothing and an unlimited link stays unlimited', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 1 })
    await startReverseShareUpload(token)
    const id = newShareId()
    const refused = await api('POST', '/api/shares', {
      cookie: reverseShareCookie(token),
      json: {
        id,
        expiration: 'never',
        security: { password: 'secret', maxViews: 3 },
        recipients: [],
      },
    })
    assert.equal(refused.status, 403)
    assert.isNull(await Share.find(id))
    assert.lengthOf(await db.from('share_securities').where('share_id', id), 0)

    const unlimited = await createReverseShare(owner.cookie)
    const upload = await uploadThroughReverseShare(unlimited.token, { 'a.txt': 'a' })
    assert.isNull(await remainingUses(unlimited.token))
    await (await app.container.make(CleanupJobs)).unfinishedShares(DateTime.utc().plus({ days: 2 }))
    assert.isNull(await Share.find(upload.shareId))
    assert.isNull(await remainingUses(unlimited.token))
  })
})
