import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Share from '#models/share'
import { cleanupShareTests, createCompletedShare, newShareId, shareUser } from '#tests/helpers/shares'
import { html } from '#tests/helpers/pages'

/** An Inertia visit (X-Inertia) to `url`: the page object as JSON. */
async function inertiaVisit(client: ApiClient, url: string) {
  const first = await client.get('/')
  const version = /"version":"([^"]*)"/.exec(first.text())?.[1] ?? ''
  const response = await client.get(url).header('X-Inertia', 'true').header('X-Inertia-Version', version)
  response.assertStatus(200)
  response.assertHeader('x-inertia', 'true')
  return response.body()
}

/** A completed share of a fresh user. */
async function ownedShare(options: { security?: { password?: string; maxViews?: number }; description?: string } = {}) {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, files: { 'notes.txt': 'secret file content' }, ...options })
}

test.group('Pages | share view', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('renders the share page with only the share id, leaving the token flow to the browser', async ({ client, assert }) => {
    const share = await ownedShare({ security: { password: 'hunter22' }, description: 'my private notes' })
    const page = await inertiaVisit(client, `/share/${share.id}`)
    assert.equal(page.component, 'share/show')
    assert.deepEqual(Object.keys(page.props).filter((key) => ['shareId', 'initialState'].includes(key)).sort(), [
      'initialState',
      'shareId',
    ])
    assert.equal(page.props.shareId, share.id)
    assert.isNull(page.props.initialState)
    const json = JSON.stringify(page)
    for (const secret of ['hunter22', 'notes.txt', 'my private notes', share.fileIds['notes.txt']]) {
      assert.notInclude(json, secret)
    }
  })

  test('server-renders the page without counting a view or setting a share cookie', async ({ client, assert }) => {
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
    assert.deepEqual((await inertiaVisit(client, `/share/${id}`)).props.initialState, { kind: 'notFound' })
  })

  test('treats an expired share as not found', async ({ client, assert }) => {
    const share = await ownedShare()
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', share.id).update({ expiration: past })
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, { kind: 'notFound' })
    assert.match(html((await client.get(`/share/${share.id}`)).text()), /<h1[^>]*>Share not found<\/h1>/)
  })

  test('server-renders "Share removed" with the reason of a removed share', async ({ client, assert }) => {
    const share = await ownedShare()
    await db.from('shares').where('id', share.id).update({ removed_reason: 'Removed for copyright reasons' })
    const text = html((await client.get(`/share/${share.id}`)).text())
    assert.match(text, /<h1[^>]*>Share removed<\/h1>/)
    assert.include(text, 'Removed for copyright reasons')
    assert.deepEqual((await inertiaVisit(client, `/share/${share.id}`)).props.initialState, {
      kind: 'removed',
      reason: 'Removed for copyright reasons',
    })
  })

  test('renders the states in the language of the cookie', async ({ client, assert }) => {
    const response = await client.get(`/share/${newShareId('missing')}`).header('Cookie', 'language=de-DE')
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
