/**
 * SharePolicy: who may create and manage a share, checked through Bouncer
 * directly and through every owner route of the API (same statuses and
 * bodies as before the policy: 401 "Unauthorized" for a visitor on a
 * user's share, else 403 "Forbidden").
 */
import { test } from '@japa/runner'
import { Bouncer } from '@adonisjs/bouncer'
import Share from '#models/share'
import SharePolicy from '#policies/share_policy'
import { policies } from '#policies/main'
import { hashOwnerToken } from '#services/shares/share_owner'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  ownerCookieOf,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

const FORBIDDEN = { statusCode: 403, message: 'Forbidden', error: 'Forbidden' }
const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' }

/** The owner routes of a completed share with file `fileId` (body for the mutating ones). */
function ownerRoutes(
  shareId: string,
  fileId: string
): [string, string, Record<string, unknown> | undefined][] {
  return [
    ['GET', `/api/shares/${shareId}/from-owner`, undefined],
    ['PATCH', `/api/shares/${shareId}`, { name: 'Renamed' }],
    ['DELETE', `/api/shares/${shareId}/files/${fileId}`, {}],
    ['DELETE', `/api/shares/${shareId}/complete`, {}],
    ['POST', `/api/shares/${shareId}/complete`, {}],
    ['DELETE', `/api/shares/${shareId}`, {}],
  ]
}

test.group('Shares | SharePolicy', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('decides through Bouncer: owner, admin, other user, visitor, owning browser', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const other = await shareUser()
    const admin = await shareUser({ admin: true })
    const { id } = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'a' } })
    const userShare = await Share.findOrFail(id)
    const decide = (
      user: typeof owner.user | null,
      share: Share,
      ownerTokenHash: string | null = null
    ) => new Bouncer(user, {}, policies).with(SharePolicy).execute('manage', share, ownerTokenHash)

    assert.isTrue((await decide(owner.user, userShare)).authorized)
    assert.isTrue((await decide(admin.user, userShare)).authorized)
    const otherUser = await decide(other.user, userShare)
    assert.deepEqual(
      [otherUser.authorized, otherUser.status, otherUser.message],
      [false, 403, 'Forbidden']
    )
    const visitor = await decide(null, userShare)
    assert.deepEqual(
      [visitor.authorized, visitor.status, visitor.message],
      [false, 401, 'Unauthorized']
    )

    const browserShare = new Share().merge({
      id: newShareId(),
      creatorId: null,
      ownerTokenHash: hashOwnerToken('a'.repeat(43)),
    })
    assert.isTrue((await decide(null, browserShare, hashOwnerToken('a'.repeat(43)))).authorized)
    assert.isTrue((await decide(admin.user, browserShare)).authorized)
    const stranger = await decide(null, browserShare, hashOwnerToken('b'.repeat(43)))
    assert.deepEqual([stranger.authorized, stranger.status], [false, 403])
    assert.equal((await decide(other.user, browserShare)).status, 403)
  })

  test("another user's share: 403 Forbidden on every owner route and on uploads, nothing changed", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const other = await shareUser()
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'a.txt': 'a' },
      name: 'Kept',
    })
    for (const [method, path, json] of ownerRoutes(share.id, share.fileIds['a.txt'])) {
      const response = await api(method, path, { cookie: other.cookie, json })
      assert.equal(response.status, 403, `${method} ${path}`)
      assert.deepEqual(response.json, FORBIDDEN, `${method} ${path}`)
      const visitor = await api(method, path, { json })
      assert.equal(visitor.status, 401, `${method} ${path} (visitor)`)
      assert.deepEqual(visitor.json, UNAUTHORIZED, `${method} ${path} (visitor)`)
    }
    const upload = await sendChunk(
      share.id,
      { name: 'x.txt', chunkIndex: 0, totalChunks: 1 },
      'x',
      other.cookie
    )
    assert.equal(upload.status, 403)
    assert.deepEqual(upload.json, FORBIDDEN)
    const row = await Share.findOrFail(share.id)
    assert.equal(row.name, 'Kept')
    assert.isTrue(row.completed)
  })

  test("a visitor's browser holding the owner cookie may manage its share; admins may manage any", async ({
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const id = newShareId()
    const created = await api('POST', '/api/shares', { json: { id, expiration: '1-day' } })
    assert.equal(created.status, 201)
    const mine = ownerCookieOf(created)!
    const share = await createCompletedShare({
      id: newShareId(),
      cookie: mine,
      files: { 'a.txt': 'a' },
    })
    const again = await api('POST', '/api/shares', {
      json: { id: newShareId(), expiration: '1-day' },
      cookie: mine,
    })
    assert.isNull(ownerCookieOf(again), 'the browser keeps its ownership token')

    for (const [method, path, json] of ownerRoutes(share.id, share.fileIds['a.txt']).slice(0, 4)) {
      const response = await api(method, path, { cookie: mine, json })
      assert.equal(response.status, 200, `${method} ${path}: ${response.bytes}`)
    }
    const admin = await shareUser({ admin: true })
    const upload = await sendChunk(
      share.id,
      { name: 'b.txt', chunkIndex: 0, totalChunks: 1 },
      'b',
      admin.cookie
    )
    assert.equal(upload.status, 201)
    assert.equal(
      (await api('POST', `/api/shares/${share.id}/complete`, { cookie: admin.cookie })).status,
      202
    )
    const renamed = await api('PATCH', `/api/shares/${share.id}`, {
      cookie: admin.cookie,
      json: { name: 'By admin' },
    })
    assert.equal(renamed.status, 200)
    assert.equal(
      (await api('DELETE', `/api/shares/${share.id}`, { cookie: admin.cookie })).status,
      200
    )
    assert.isNull(await Share.find(share.id))
  })

  test('creating: 401 Unauthorized for a visitor while anonymous shares are off', async ({
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'false')
    const response = await api('POST', '/api/shares', {
      json: { id: newShareId(), expiration: '1-day' },
    })
    assert.equal(response.status, 401)
    assert.deepEqual(response.json, UNAUTHORIZED)
    assert.isUndefined(response.cookies.tern_share_owner)
  })
})
