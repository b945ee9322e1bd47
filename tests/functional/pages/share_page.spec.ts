import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Share from '#models/share'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import { html, inertiaVisit } from '#tests/helpers/pages'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

/** A completed share of a fresh user. */
async function ownedShare(
  options: { security?: { password?: string; maxViews?: number }; description?: string } = {}
) {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, files: { 'notes.txt': 'secret file content' }, ...options })
}

test.group('Pages | share view', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test("renders the share page with the share id and the token flow's first step, nothing of the share", async ({
    client,
    assert,
  }) => {
    const share = await ownedShare({
      security: { password: 'hunter22' },
      description: 'my private notes',
    })
    const page = await inertiaVisit(client, `/share/${share.id}`)
    assert.equal(page.component, 'share/show')
    assert.deepEqual(
      Object.keys(page.props)
        .filter((key) => ['shareId', 'initialState'].includes(key))
        .sort(),
      ['initialState', 'shareId']
    )
    assert.equal(page.props.shareId, share.id)
    assert.deepEqual(page.props.initialState, { kind: 'passwordRequired' })
    const json = JSON.stringify(page)
    for (const secret of [
      'hunter22',
      'notes.txt',
      'my private notes',
      share.fileIds['notes.txt'],
    ]) {
      assert.notInclude(json, secret)
    }
  })

  test('server-renders the page without counting a view or setting a share cookie', async ({
    client,
    assert,
  }) => {
    const share = await ownedShare({ security: { maxViews: 1 } })
    const response = await client.get(`/share/${share.id}`)
    response.assertStatus(200)
    assert.include(html(response.text()), '<title data-inertia="">Share - Tern</title>')
    assert.notInclude(response.headers()['set-cookie']?.toString() ?? '', `share_${share.id}_token`)
    assert.equal((await Share.findOrFail(share.id)).views, 0)
  })

  test('server-renders "Share not found" for an unknown share', async ({ client, assert }) => {
    const id = newShareId('missing')
    const response = await client.get(`/share/${id}`)
    response.assertStatus(200)
    const text = html(response.text())
    assert.match(text, /<h1[^>]*>Share not found<\/h1>/)
    assert.include(text, '<title data-inertia="">Share not found - Tern</title>')
    assert.deepEqual((await inertiaVisit(client, `/share/${id}`)).props.initialState, {
      kind: 'notFound',
    })
  })

  test('server-renders "Share expired" for an expired share; the API still answers 404 "Share not found"', async ({
    client,
    assert,
  }) => {
    const share = await ownedShare()
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', share.id).update({ expiration: past })
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'expired',
    })
    const text = html((await client.get(`/share/${share.id}`)).text())
    assert.match(text, /<h1[^>]*>Share expired<\/h1>/)
    assert.include(text, '<title data-inertia="">Share expired - Tern</title>')
    const answer = await api('GET', `/api/shares/${share.id}`)
    assert.equal(answer.status, 404)
    assert.equal(answer.json.message, 'Share not found')
  })

  test('a share without password starts by asking for a token; a browser holding a valid token GETs the share', async ({
    client,
    assert,
  }) => {
    const share = await ownedShare()
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'tokenRequired',
    })
    const { cookie } = await shareToken(share.id)
    assert.isNotNull(cookie)
    assert.isNull((await inertiaVisit(client, `/share/${share.id}`, cookie!)).props.initialState)
    // A token of another share (or a forged one) does not count.
    const other = await ownedShare()
    const otherToken = (await shareToken(other.id)).cookie!.split('=')[1]
    for (const forged of [
      `share_${share.id}_token=${otherToken}`,
      `share_${share.id}_token=a.b.c`,
    ]) {
      assert.deepEqual(
        (await inertiaVisit(client, `/share/${share.id}`, forged)).props.initialState,
        { kind: 'tokenRequired' }
      )
    }
    assert.equal(
      (await Share.findOrFail(share.id)).views,
      1,
      'only the token request counted a view, no page render'
    )
  })

  test('a view-limited share whose limit is reached says so before asking for a password', async ({
    client,
    assert,
  }) => {
    const share = await ownedShare({ security: { password: 'hunter22', maxViews: 1 } })
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'passwordRequired',
    })
    const { cookie } = await shareToken(share.id, 'hunter22')
    assert.isNull(
      (await inertiaVisit(client, `/share/${share.id}`, cookie!)).props.initialState,
      'the visitor who got in'
    )
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'visitorLimit',
    })
    const text = html((await client.get(`/share/${share.id}`)).text())
    assert.match(text, /<h1[^>]*>Visitor limit exceeded<\/h1>/)
    // The API's order is unchanged (Pingvin's: the password is checked before the view limit).
    const withoutPassword = await shareToken(share.id)
    assert.equal(withoutPassword.response.json.error, 'share_password_required')
    const withPassword = await shareToken(share.id, 'hunter22')
    assert.equal(withPassword.response.json.error, 'share_max_views_exceeded')
  })

  test("a private share of a reverse share is private on the page too, except for its reverse share's creator", async ({
    client,
    assert,
  }) => {
    const owner = await shareUser()
    const stranger = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { publicAccess: false })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'abc' })
    for (const cookie of ['', stranger.cookie]) {
      assert.deepEqual(
        (await inertiaVisit(client, `/share/${upload.shareId}`, cookie)).props.initialState,
        { kind: 'privateShare' }
      )
    }
    assert.deepEqual(
      (await inertiaVisit(client, `/share/${upload.shareId}`, owner.cookie)).props.initialState,
      {
        kind: 'tokenRequired',
      }
    )
    assert.equal((await Share.findOrFail(upload.shareId)).views, 0)
  })

  test('server-renders "Share removed" with the reason of a removed share', async ({
    client,
    assert,
  }) => {
    const share = await ownedShare()
    await db
      .from('shares')
      .where('id', share.id)
      .update({ removed_reason: 'Removed for copyright reasons' })
    const text = html((await client.get(`/share/${share.id}`)).text())
    assert.match(text, /<h1[^>]*>Share removed<\/h1>/)
    assert.include(text, 'Removed for copyright reasons')
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'removed',
      reason: 'Removed for copyright reasons',
    })
  })

  test('renders the states in the language of the cookie', async ({ client, assert }) => {
    const response = await client
      .get(`/share/${newShareId('missing')}`)
      .header('Cookie', 'language=de-DE')
    assert.match(html(response.text()), /<h1[^>]*>Freigabe nicht gefunden<\/h1>/)
  })

  test('/s/:id redirects to /share/:id', async ({ client }) => {
    const response = await client.get('/s/my-share_1').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/share/my-share_1')
  })

  test('/s/:id keeps an encoded id encoded in the redirect', async ({ client }) => {
    const response = await client.get('/s/a%20b%2Fc').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/share/a%20b%2Fc')
  })
})
