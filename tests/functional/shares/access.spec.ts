import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Share from '#models/share'
import { signJwt } from '#services/auth/jwt'
import { rateLimits } from '#services/auth/rate_limiter'
import InstanceSecretService, { INSTANCE_SECRETS } from '#services/auth/instance_secret_service'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  forEachDisk,
  newShareId,
  shareToken,
  shareUser,
  SHARE_KEYS,
} from '#tests/helpers/shares'

async function ownedShare(
  options: { security?: { password?: string; maxViews?: number }; expiration?: string } = {}
) {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, files: { 'b.txt': 'bbb', 'a.txt': 'a' }, ...options })
}

forEachDisk('Shares | share token', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('answers 200 with exactly {token} and sets the HttpOnly session cookie share_<id>_token', async ({
    assert,
  }) => {
    const share = await ownedShare()
    const { response, cookie } = await shareToken(share.id)
    assert.equal(response.status, 200)
    assert.deepEqual(Object.keys(response.json), ['token'])
    assert.equal(cookie, `share_${share.id}_token=${response.json.token}`)
    const line = response.setCookies.find((c) => c.startsWith(`share_${share.id}_token=`))!
    assert.match(line, /HttpOnly/i)
    assert.match(line, /Path=\//)
    assert.notMatch(line, /Max-Age|Expires/i, 'a session cookie')
    assert.equal((await Share.findOrFail(share.id)).views, 1)
  })

  test('checks the password before the view limit', async ({ assert }) => {
    const share = await ownedShare({ security: { password: 'secret', maxViews: 1 } })
    const missing = await shareToken(share.id)
    assert.equal(missing.response.status, 403)
    assert.deepEqual(missing.response.json, {
      statusCode: 403,
      message: 'This share is password protected',
      error: 'share_password_required',
    })
    const first = await shareToken(share.id, 'secret')
    assert.equal(first.response.status, 200)
    const wrong = await shareToken(share.id, 'nope')
    assert.deepEqual(wrong.response.json, {
      statusCode: 403,
      message: 'Wrong password',
      error: 'wrong_password',
    })
    const exhausted = await shareToken(share.id, 'secret')
    assert.equal(exhausted.response.status, 403)
    assert.equal(exhausted.response.json.error, 'share_max_views_exceeded')
    assert.equal((await Share.findOrFail(share.id)).views, 1)
  })

  test('limits password guesses per share (429 with Retry-After)', async ({ assert }) => {
    const share = await ownedShare({ security: { password: 'secret' } })
    const { perIdentifier } = rateLimits()
    const statuses: number[] = []
    for (let attempt = 0; attempt < perIdentifier * 3 && !statuses.includes(429); attempt++) {
      statuses.push((await shareToken(share.id, `guess-${attempt}`)).response.status)
    }
    assert.deepEqual(statuses.slice(0, perIdentifier), Array(perIdentifier).fill(403))
    assert.include(statuses, 429)
    const limited = await shareToken(share.id, 'secret')
    assert.equal(limited.response.status, 429)
    assert.isString(limited.response.headers.get('retry-after'))
  })

  test('with maxViews N, N+5 concurrent visitors let exactly N in', async ({ assert }) => {
    const share = await ownedShare({ security: { maxViews: 4 } })
    const results = await Promise.all(Array.from({ length: 9 }, () => shareToken(share.id)))
    const statuses = results.map((r) => r.response.status)
    assert.equal(statuses.filter((s) => s === 200).length, 4)
    assert.equal(statuses.filter((s) => s === 403).length, 5)
    for (const r of results.filter((result) => result.response.status === 403)) {
      assert.equal(r.response.json.error, 'share_max_views_exceeded')
    }
    assert.equal((await Share.findOrFail(share.id)).views, 4)
  })

  test('answers 404 for unknown and uncompleted shares', async ({ assert }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id })
    for (const shareId of ['missing-share', id]) {
      const { response } = await shareToken(shareId)
      assert.equal(response.status, 404)
      assert.equal(response.json.message, 'Share not found')
    }
  })

  test('keeps at most the 10 newest share cookies per browser', async ({ assert }) => {
    const share = await ownedShare()
    const secret = await new InstanceSecretService().get(INSTANCE_SECRETS.jwt)
    const others = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const token = await signJwt(
          { shareId: `old-${i}`, shareCreatedAt: 'x', iat: 1000 + i },
          secret
        )
        return `share_old-${i}_token=${token}`
      })
    )
    const { response } = await shareToken(share.id, undefined, others.join('; '))
    assert.equal(response.status, 200)
    const cleared = response.setCookies.filter((c) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))
    assert.deepEqual(
      cleared.map((c) => c.split('=')[0]),
      ['share_old-0_token']
    )
  })
})

forEachDisk('Shares | viewing a share', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('answers the share with files sorted by name to a token holder', async ({ assert }) => {
    const share = await ownedShare()
    const { cookie } = await shareToken(share.id)
    const response = await api('GET', `/api/shares/${share.id}`, { cookie })
    assert.equal(response.status, 200)
    assert.sameMembers(Object.keys(response.json), SHARE_KEYS)
    assert.deepEqual(response.json.files, [
      { id: share.fileIds['a.txt'], name: 'a.txt', size: '1' },
      { id: share.fileIds['b.txt'], name: 'b.txt', size: '3' },
    ])
    assert.equal(response.json.size, 4)
    assert.isFalse(response.json.hasPassword)
  })

  test('answers share_token_required / share_password_required without a valid token', async ({
    assert,
  }) => {
    const open = await ownedShare()
    const none = await api('GET', `/api/shares/${open.id}`)
    assert.deepEqual(none.json, {
      statusCode: 403,
      message: 'Share token required',
      error: 'share_token_required',
    })
    const forged = await api('GET', `/api/shares/${open.id}`, {
      cookie: `share_${open.id}_token=abc.def.ghi`,
    })
    assert.equal(forged.json.error, 'share_token_required')
    const protectedShare = await ownedShare({ security: { password: 'secret' } })
    const locked = await api('GET', `/api/shares/${protectedShare.id}`)
    assert.equal(locked.status, 403)
    assert.equal(locked.json.error, 'share_password_required')
    const otherToken = await shareToken(open.id)
    const wrongShare = await api('GET', `/api/shares/${protectedShare.id}`, {
      cookie: otherToken.cookie!.replace(open.id, protectedShare.id),
    })
    assert.equal(wrongShare.json.error, 'share_password_required')
  })

  test('a token of a deleted share does not open a new share with the same id', async ({
    assert,
  }) => {
    const share = await ownedShare()
    const { cookie } = await shareToken(share.id)
    await db.from('shares').where('id', share.id).update({ created_at: '2020-01-01 00:00:00' })
    const response = await api('GET', `/api/shares/${share.id}`, { cookie })
    assert.equal(response.json.error, 'share_token_required')
  })

  test('metaData answers exactly {id, isZipReady}', async ({ assert }) => {
    const share = await ownedShare()
    const { cookie } = await shareToken(share.id)
    const response = await api('GET', `/api/shares/${share.id}/metaData`, { cookie })
    assert.deepEqual(response.json, { id: share.id, isZipReady: true })
    assert.equal((await api('GET', `/api/shares/${share.id}/metaData`)).status, 403)
  })

  test('an expired share is not found', async ({ assert }) => {
    const share = await ownedShare({ expiration: '1-minute' })
    const { cookie } = await shareToken(share.id)
    assert.equal((await api('GET', `/api/shares/${share.id}`, { cookie })).status, 200)
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', share.id).update({ expiration: past })
    for (const path of [
      `/api/shares/${share.id}`,
      `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`,
    ]) {
      const response = await api('GET', path, { cookie })
      assert.equal(response.status, 404, path)
      assert.equal(response.json.message, 'Share not found')
    }
    assert.equal((await shareToken(share.id)).response.status, 404)
    const mine = await api('GET', '/api/shares', { cookie: share.cookie })
    assert.deepEqual(mine.json, [])
  })

  test('a removed share answers 404 share_removed with the reason', async ({ assert }) => {
    const share = await ownedShare()
    await db.from('shares').where('id', share.id).update({ removed_reason: 'Illegal content' })
    const response = await api('GET', `/api/shares/${share.id}`)
    assert.deepEqual(response.json, {
      statusCode: 404,
      message: 'Illegal content',
      error: 'share_removed',
    })
  })

  test('an uncompleted share is not found for visitors', async ({ assert }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id })
    const response = await api('GET', `/api/shares/${id}`)
    assert.equal(response.status, 404)
    assert.equal(response.json.message, 'Share not found')
  })
})
