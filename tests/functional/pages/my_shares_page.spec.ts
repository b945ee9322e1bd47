import { test } from '@japa/runner'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  joinCookies,
  newShareId,
  ownerCookieOf,
  setConfig,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'
import { pageObject, page } from '#tests/helpers/pages'

test.group('Pages | my shares', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('visitors are sent to sign in and come back to my shares afterwards', async ({ assert }) => {
    const response = await page('/account/shares')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/auth/signIn?redirect=/account/shares')
  })

  test('the page is server-rendered for a signed-in user with its title and heading', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const response = await page('/account/shares', cookie)
    assert.equal(response.status, 200, response.text.slice(0, 2000))
    assert.include(response.text, '<title data-inertia="">My shares - Tern</title>')
    assert.match(response.text, /<h1[^>]*>My shares<\/h1>/)
    assert.equal(pageObject(response.raw).component, 'account/shares')
  })

  test('the page is rendered in the language of the cookie', async ({ assert }) => {
    const { cookie } = await shareUser()
    const response = await page('/account/shares', joinCookies(cookie, 'language=de-DE'))
    assert.include(response.text, '<title data-inertia="">Meine Freigaben - Tern</title>')
    assert.match(response.text, /<h1[^>]*>Meine Freigaben<\/h1>/)
  })
})

test.group('Pages | share edit', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('the owner gets the edit page with the share id and its view limit', async ({ assert }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'a.txt': 'abc' },
      security: { maxViews: 4 },
    })
    const response = await page(`/share/${share.id}/edit`, cookie)
    assert.equal(response.status, 200)
    assert.include(response.text, `<title data-inertia="">Edit share ${share.id} - Tern</title>`)
    const { component, props } = pageObject(response.raw)
    assert.equal(component, 'share/edit')
    assert.equal(props.shareId, share.id)
    assert.equal(props.access, 'owner')
    assert.equal(props.maxViews, 4)
    assert.isFalse(props.expirationFixed)
  })

  test('for a share made through a reverse share link, the page says the expiration is fixed', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    const response = await page(`/share/${upload.shareId}/edit`, upload.cookie)
    assert.equal(response.status, 200)
    const { props } = pageObject(response.raw)
    assert.equal(props.access, 'owner')
    assert.isTrue(props.expirationFixed)
  })

  test('a share of another user answers 403 with the refusal state and reveals nothing of it', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const stranger = await shareUser()
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'secret-name.txt': 'abc' },
      name: 'Secret name',
      security: { maxViews: 9 },
    })
    const response = await page(`/share/${share.id}/edit`, stranger.cookie)
    assert.equal(response.status, 403)
    assert.include(response.text, `<title data-inertia="">You can't edit this share - Tern</title>`)
    assert.match(response.text, /<h1[^>]*>You can't edit this share<\/h1>/)
    assert.include(response.text, 'Only the creator of a share can edit it.')
    assert.notInclude(response.text, 'Secret name')
    assert.notInclude(response.text, 'secret-name.txt')
    const { component, props } = pageObject(response.raw)
    assert.equal(component, 'share/edit')
    assert.equal(props.access, 'forbidden')
    assert.isNull(props.maxViews)
  })

  test('an unknown share answers 404 with the not-found state', async ({ assert }) => {
    const { cookie } = await shareUser()
    const response = await page(`/share/${newShareId()}/edit`, cookie)
    assert.equal(response.status, 404)
    assert.include(response.text, '<title data-inertia="">Share not found - Tern</title>')
    assert.match(response.text, /<h1[^>]*>Share not found<\/h1>/)
    assert.equal(pageObject(response.raw).props.access, 'notFound')
  })

  test("visitors asking for a user's share are sent to sign in and back", async ({ assert }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'a.txt': 'abc' } })
    const response = await page(`/share/${share.id}/edit`)
    assert.equal(response.status, 302)
    assert.equal(response.location, `/auth/signIn?redirect=/share/${share.id}/edit`)
  })

  test('admins may edit any share', async ({ assert }) => {
    const owner = await shareUser()
    const admin = await shareUser({ admin: true })
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'abc' } })
    const response = await page(`/share/${share.id}/edit`, admin.cookie)
    assert.equal(response.status, 200)
    assert.equal(pageObject(response.raw).props.access, 'owner')
  })

  test("a visitor's share can be edited only from the browser that created it", async ({
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const id = newShareId()
    const created = await api('POST', '/api/shares', { json: { id, expiration: '1-day' } })
    const mine = ownerCookieOf(created)!
    await uploadFile(id, 'mine.txt', 'mine', mine)
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie: mine })).status, 202)
    const stranger = ownerCookieOf(
      await api('POST', '/api/shares', { json: { id: newShareId(), expiration: '1-day' } })
    )!

    const owned = await page(`/share/${id}/edit`, mine)
    assert.equal(owned.status, 200)
    assert.equal(pageObject(owned.raw).props.access, 'owner')
    for (const cookie of [stranger, null]) {
      const refused = await page(`/share/${id}/edit`, cookie)
      assert.equal(refused.status, 403)
      assert.equal(pageObject(refused.raw).props.access, 'forbidden')
    }
  })
})
