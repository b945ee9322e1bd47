import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  joinCookies,
  newShareId,
  sendChunk,
  setConfig,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import {
  completedReverseShareUpload,
  createReverseShare,
  dbDate,
  reverseShareCookie,
  setCookieLine,
  startReverseShareUpload,
} from '#tests/helpers/reverse_shares'

/** The Set-Cookie lines that clear `reverse_share_token`, as `path` values. */
function clearedPaths(setCookies: string[]): string[] {
  return setCookies
    .filter(
      (line) =>
        line.startsWith('reverse_share_token=;') &&
        /Max-Age=-1|Expires=Thu, 01 Jan 1970/i.test(line)
    )
    .map((line) => /Path=([^;]+)/i.exec(line)?.[1] ?? '')
    .sort()
}

test.group('Reverse shares | creating shares through the token cookie', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test("a visitor with a valid token may create a share while unauthenticated shares are off; it takes the reverse share's expiry", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '2-days' })
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    const id = newShareId()
    const response = await api('POST', '/api/shares', {
      cookie: reverseShareCookie(token),
      json: { id, expiration: 'never', recipients: [] },
    })
    assert.equal(response.status, 201)
    assert.sameMembers(Object.keys(response.json), ['id', 'name', 'expiration', 'description'])
    assert.equal(response.json.expiration, reverseShare.shareExpiration!.toUTC().toISO())
    const share = await Share.findOrFail(id)
    assert.equal(share.reverseShareId, reverseShare.id)
    assert.isNull(share.creatorId)
    assert.isString(share.ownerTokenHash)
    assert.deepEqual(
      clearedPaths(response.setCookies),
      ['/', '/api/shares'],
      'one cookie, one share'
    )

    const withoutToken = await api('POST', '/api/shares', {
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(withoutToken.status, 401)
  })

  test('a signed-in uploader creates a share that belongs to the reverse share and to them', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const uploader = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const upload = await startReverseShareUpload(token, { cookie: uploader.cookie })
    const share = await Share.findOrFail(upload.shareId)
    assert.equal(share.creatorId, uploader.user.id)
    assert.equal(share.reverseShareId, (await ReverseShare.findByOrFail('token', token)).id)
    assert.isNull(share.expiration, 'the reverse share never expires, whatever the body said')
  })

  test('an unknown, expired or used-up token answers 403 "Reverse share token not found" (as Pingvin), clears the cookie and stores nothing', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const expired = await createReverseShare(owner.cookie, { shareExpiration: '1-day' })
    await db
      .from('reverse_shares')
      .where('token', expired.token)
      .update({ share_expiration: dbDate(DateTime.utc().minus({ minutes: 1 })) })
    const usedUp = await createReverseShare(owner.cookie, { maxUseCount: 1 })
    const used = await completedReverseShareUpload(usedUp.token, { 'a.txt': 'a' })
    const before = await Share.query()
      .count('* as n')
      .first()
      .then((r) => Number(r!.$extras.n))

    for (const [token, cookie] of [
      ['nope', null],
      [expired.token, null],
      [usedUp.token, null],
      [usedUp.token, owner.cookie],
      ['bad token!', null],
    ] as const) {
      const response = await api('POST', '/api/shares', {
        cookie: joinCookies(cookie, reverseShareCookie(token)),
        json: { id: newShareId(), expiration: 'never' },
      })
      assert.equal(response.status, 403, token)
      assert.deepEqual(response.json, {
        statusCode: 403,
        message: 'Reverse share token not found',
        error: 'Forbidden',
      })
      assert.deepEqual(clearedPaths(response.setCookies), ['/', '/api/shares'])
    }
    assert.equal(
      await Share.query()
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      before
    )
    assert.isNotNull(await Share.find(used.shareId))
  })

  test('a failed creation keeps the cookie, so the uploader can retry', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const taken = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'a' } })
    const cookie = reverseShareCookie(token)
    const clash = await api('POST', '/api/shares', {
      cookie,
      json: { id: taken.id, expiration: 'never' },
    })
    assert.equal(clash.status, 400)
    assert.equal(clash.json.message, 'Share id already in use')
    assert.isUndefined(setCookieLine(clash, 'reverse_share_token'))
    const retry = await api('POST', '/api/shares', {
      cookie,
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(retry.status, 201)
  })

  test('the cookie never leaks into a later ordinary upload', async ({ assert }) => {
    const owner = await shareUser()
    const uploader = await shareUser()
    const { token } = await createReverseShare(owner.cookie, {
      shareExpiration: '1-hour',
      publicAccess: false,
    })

    /** The uploader opened the link but uploads from the ordinary upload page: the page drops the cookie. */
    const page = await api('GET', '/upload', {
      cookie: joinCookies(uploader.cookie, reverseShareCookie(token)),
    })
    assert.equal(page.status, 200)
    assert.deepEqual(clearedPaths(page.setCookies), ['/', '/api/shares'])

    /** After a share was made through it, the browser is told to drop it; the next upload is ordinary. */
    const upload = await startReverseShareUpload(token, { cookie: uploader.cookie })
    assert.deepEqual(clearedPaths(upload.created.setCookies), ['/', '/api/shares'])
    const ordinary = await api('POST', '/api/shares', {
      cookie: uploader.cookie,
      json: { id: newShareId(), expiration: '3-days' },
    })
    assert.equal(ordinary.status, 201)
    const share = await Share.findOrFail(ordinary.json.id)
    assert.isNull(share.reverseShareId)
    assert.closeTo(share.expiration!.diffNow('days').days, 3, 0.01)
  })
})

test.group('Reverse shares | size limit', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test("answers 413 through the chunk API when a share would exceed the reverse share's maxShareSize", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '10' })
    const upload = await startReverseShareUpload(token)
    await uploadFile(upload.shareId, 'ten.bin', Buffer.alloc(10, 1), upload.cookie)
    const over = await sendChunk(
      upload.shareId,
      { name: 'one.bin', chunkIndex: 0, totalChunks: 1 },
      'x',
      upload.cookie
    )
    assert.equal(over.status, 413)
    assert.deepEqual(over.json, { statusCode: 413, message: 'Max share size exceeded' })

    const fresh = await startReverseShareUpload(token)
    const tooBig = await sendChunk(
      fresh.shareId,
      { name: 'big.bin', chunkIndex: 0, totalChunks: 1 },
      Buffer.alloc(11),
      fresh.cookie
    )
    assert.equal(tooBig.status, 413)
    assert.deepEqual(tooBig.json, { statusCode: 413, message: 'Max share size exceeded' })

    const ordinary = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'big.bin': Buffer.alloc(11) },
    })
    assert.isNotNull(await Share.find(ordinary.id), 'ordinary shares keep share.maxSize')

    await setConfig('share.chunkSize', '4')
    const chunked = await startReverseShareUpload(token)
    const first = await sendChunk(
      chunked.shareId,
      { name: 'c.bin', chunkIndex: 0, totalChunks: 4 },
      'aaaa',
      chunked.cookie
    )
    assert.equal(first.status, 413, 'the declared size (3 full chunks + 1 byte) is over 10 bytes')
    assert.deepEqual(first.json, { statusCode: 413, message: 'Max share size exceeded' })
  })
})
