/**
 * The share events reach the channels they are routed to: each is caused
 * the way a user causes it (over HTTP; the expiry jobs as the scheduler runs
 * them) and arrives exactly once, with its payload, through the recording
 * channel; a user without a route gets nothing.
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import ExpiryNoticeJob from '#services/jobs/expiry_notice_job'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { dbDate } from '#tests/helpers/reverse_shares'
import {
  api,
  baseUrl,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  setConfig,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import {
  delivered,
  resetRecording,
  routeOwn,
} from '#tests/functional/notifications/emission_support'
import { waitFor } from '#tests/helpers/redis_server'

test.group('Notifications | share events', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(async () => {
    await cleanupShareTests()
    await resetRecording()
  })

  test('share.created reaches the owner who routed it, once, and nobody else', async ({
    assert,
  }) => {
    // A confirmed public address (#services/links/link_base): the share's URL is built on it.
    await setConfig('general.appUrl', 'https://tern.example.com')
    const owner = await shareUser()
    const other = await shareUser()
    await routeOwn(owner.cookie, ['share.created'])
    const id = newShareId()
    await createShare(owner.cookie, { id, name: 'Holiday', expiration: 'never' })
    await createShare(other.cookie, { id: newShareId(), expiration: 'never' })

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    const [message] = messages
    assert.equal(message.event, 'share.created')
    assert.deepEqual(message.payload, {
      share: {
        id,
        name: 'Holiday',
        url: message.payload.share.url,
        expiresAt: null,
        creatorId: owner.user.id,
        reverseShareId: null,
      },
    })
    assert.equal(message.payload.share.url, `https://tern.example.com/s/${id}`)
    assert.equal(message.recipient?.userId, owner.user.id)
    assert.equal(message.recipient?.email, owner.user.email)
    assert.isNotEmpty(message.rendered.subject)
  })

  test('share.completed carries the file count and size; reopening and completing again sends nothing more', async ({
    assert,
  }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['share.completed'])
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'hello', 'b.txt': 'world!' },
    })
    assert.equal(
      (await api('DELETE', `/api/shares/${share.id}/complete`, { cookie: owner.cookie })).status,
      200
    )
    assert.equal(
      (await api('POST', `/api/shares/${share.id}/complete`, { cookie: owner.cookie })).status,
      202
    )

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'share.completed')
    assert.include(messages[0].payload.share, {
      id: share.id,
      fileCount: 2,
      size: 11,
      creatorId: owner.user.id,
    })
  })

  test('share.downloaded: files and the zip fetched by a visitor are one event; the owner downloading is none', async ({
    assert,
  }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['share.downloaded'])
    const mine = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'a', 'b.txt': 'b' },
    })
    const ownToken = await shareToken(mine.id, undefined, owner.cookie)
    const ownCookie = `${owner.cookie}; ${ownToken.cookie}`
    assert.equal(
      (
        await api('GET', `/api/shares/${mine.id}/files/${mine.fileIds['a.txt']}`, {
          cookie: ownCookie,
        })
      ).status,
      200
    )
    assert.equal(
      (await api('GET', `/api/shares/${mine.id}/files/zip`, { cookie: ownCookie })).status,
      200
    )
    assert.lengthOf(await delivered(), 0)

    const files: Record<string, string> = {}
    for (let index = 0; index < 5; index++) files[`f${index}.txt`] = `file ${index}`
    const share = await createCompletedShare({ cookie: owner.cookie, files })
    const visitor = (await shareToken(share.id)).cookie!
    // HEAD sends no file: no event.
    assert.equal(
      (
        await api('HEAD', `/api/shares/${share.id}/files/${share.fileIds['f0.txt']}`, {
          cookie: visitor,
        })
      ).status,
      200
    )
    assert.lengthOf(await delivered(), 0)
    for (const name of Object.keys(files)) {
      const response = await api('GET', `/api/shares/${share.id}/files/${share.fileIds[name]}`, {
        cookie: visitor,
      })
      assert.equal(response.status, 200)
    }
    assert.equal(
      (await api('GET', `/api/shares/${share.id}/files/zip`, { cookie: visitor })).status,
      200
    )

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'share.downloaded')
    assert.equal(messages[0].payload.share.id, share.id)
    assert.deepEqual(messages[0].payload.file, {
      id: share.fileIds['f0.txt'],
      name: 'f0.txt',
      size: 6,
    })
  })

  test('share.downloaded: a zip download by a visitor names no file', async ({ assert }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['share.downloaded'])
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'a' } })
    const visitor = (await shareToken(share.id)).cookie!
    assert.equal(
      (await api('GET', `/api/shares/${share.id}/files/zip`, { cookie: visitor })).status,
      200
    )
    const messages = await delivered('share.downloaded')
    assert.lengthOf(messages, 1)
    assert.isNull(messages[0].payload.file)
  })

  test('share.downloaded: recorded once for a visitor who leaves after the headers, not again for the next download', async ({
    assert,
  }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['share.downloaded'])
    const content = randomBytes(4 * 1024 * 1024)
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'big.bin': content },
    })
    const visitor = (await shareToken(share.id)).cookie!
    const path = `/api/shares/${share.id}/files/${share.fileIds['big.bin']}`
    // The notice runs while the body streams: a client that goes away after the headers does not cancel it.
    const leaving = new AbortController()
    const started = await fetch(baseUrl() + path, {
      headers: { cookie: visitor },
      signal: leaving.signal,
    })
    assert.equal(started.status, 200)
    leaving.abort()
    await started.body?.cancel().catch(() => {})
    await waitFor(
      async () => (await delivered('share.downloaded')).length > 0,
      30_000,
      'the download notice'
    )

    const whole = await api('GET', path, { cookie: visitor })
    assert.equal(whole.status, 200)
    assert.isTrue(whole.bytes.equals(content))
    const messages = await delivered('share.downloaded')
    assert.lengthOf(messages, 1)
    assert.deepEqual(messages[0].payload.file, {
      id: share.fileIds['big.bin'],
      name: 'big.bin',
      size: content.length,
    })
  })

  test('share.deleted says who deleted: the owner, or an admin', async ({ assert }) => {
    const owner = await shareUser()
    const admin = await shareUser({ admin: true })
    await routeOwn(owner.cookie, ['share.deleted'])
    const first = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'a' } })
    const second = await createCompletedShare({ cookie: owner.cookie, files: { 'b.txt': 'b' } })
    assert.equal(
      (await api('DELETE', `/api/shares/${first.id}`, { cookie: owner.cookie })).status,
      200
    )
    assert.equal(
      (await api('DELETE', `/api/shares/${second.id}`, { cookie: admin.cookie })).status,
      200
    )

    const messages = await delivered()
    assert.deepEqual(
      messages.map((message) => [message.event, message.payload.share.id, message.payload.by]),
      [
        ['share.deleted', first.id, 'owner'],
        ['share.deleted', second.id, 'admin'],
      ]
    )
  })

  test('share.expiring: once per expiry, again after the expiry is changed; shares expiring later wait', async ({
    assert,
  }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['share.expiring'])
    const soon = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'a' },
      expiration: '2-hours',
    })
    await createCompletedShare({
      cookie: owner.cookie,
      files: { 'b.txt': 'b' },
      expiration: '3-days',
    })
    const job = await app.container.make(ExpiryNoticeJob)

    assert.deepEqual((await job.run()).shares, [soon.id])
    assert.deepEqual((await job.run()).shares, [])
    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'share.expiring')
    assert.equal(messages[0].payload.share.id, soon.id)
    assert.isNotNull(messages[0].payload.share.expiresAt)

    const edited = await api('PATCH', `/api/shares/${soon.id}`, {
      cookie: owner.cookie,
      json: { expiration: '5-hours' },
    })
    assert.equal(edited.status, 200)
    // Two turns at once (two instances): the claim lets one of them announce it.
    const turns = await Promise.all([job.run(), job.run()])
    assert.deepEqual(
      turns.flatMap((turn) => turn.shares),
      [soon.id]
    )
    assert.lengthOf(await delivered('share.expiring'), 2)
  })

  test('share.expired when the clean-up job removes an expired share', async ({ assert }) => {
    const owner = await shareUser()
    const other = await shareUser()
    await routeOwn(owner.cookie, ['share.expired'])
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'a' },
      expiration: '1-hour',
    })
    const unrouted = await createCompletedShare({
      cookie: other.cookie,
      files: { 'a.txt': 'a' },
      expiration: '1-hour',
    })
    const past = dbDate(DateTime.utc().minus({ minutes: 1 }))
    await db.from('shares').whereIn('id', [share.id, unrouted.id]).update({ expiration: past })

    const removed = await (await app.container.make(CleanupJobs)).expiredShares()
    assert.sameMembers(removed, [share.id, unrouted.id])
    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'share.expired')
    assert.include(messages[0].payload.share, { id: share.id, creatorId: owner.user.id })
  })

  test('without a route, nothing is delivered for the whole lifecycle', async ({ assert }) => {
    const owner = await shareUser()
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'a' },
      expiration: '2-hours',
    })
    const visitor = (await shareToken(share.id)).cookie!
    assert.equal(
      (await api('GET', `/api/shares/${share.id}/files/zip`, { cookie: visitor })).status,
      200
    )
    await (await app.container.make(ExpiryNoticeJob)).run()
    assert.equal(
      (await api('DELETE', `/api/shares/${share.id}`, { cookie: owner.cookie })).status,
      200
    )
    assert.lengthOf(await delivered(), 0)
    const rows = await db
      .from('notification_deliveries')
      .where('channel', 'recording')
      .count('* as total')
    assert.equal(Number(rows[0].total), 0)
  })
})
