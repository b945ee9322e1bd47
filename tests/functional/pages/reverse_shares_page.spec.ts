import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { cleanupShareTests, joinCookies, setConfig, shareUser } from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'
import { pageObject, page } from '#tests/helpers/pages'

/** Moves a reverse share's expiry into the past. */
async function expire(token: string) {
  const past = DateTime.utc().minus({ minutes: 5 }).toFormat(db.connection().dialect.dateTimeFormat)
  await db.from('reverse_shares').where('token', token).update({ share_expiration: past })
}

/** Asserts the page is the "link not valid" page, with a 404 and no upload form. */
function assertInvalidLinkPage(
  assert: any,
  response: Awaited<ReturnType<typeof page>>,
  token: string
) {
  assert.equal(response.status, 404, response.text.slice(0, 2000))
  assert.include(
    response.text,
    '<title data-inertia="">This upload link is not valid - Tern</title>'
  )
  assert.match(response.text, /<h1[^>]*>This upload link is not valid<\/h1>/)
  assert.include(response.text, 'has been used as often as allowed')
  assert.notInclude(response.text, 'data-testid="file-input"')
  const { component, props } = pageObject(response.raw)
  assert.equal(component, 'upload/reverse_share')
  assert.equal(props.token, token)
  assert.isNull(props.reverseShare)
}

test.group('Pages | reverse shares list', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('visitors are sent to sign in and come back to the reverse shares afterwards', async ({
    assert,
  }) => {
    const response = await page('/account/reverseShares')
    assert.equal(response.status, 302)
    assert.equal(response.location, '/auth/signIn?redirect=/account/reverseShares')
  })

  test('the page is server-rendered for a signed-in user with its title and heading', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const response = await page('/account/reverseShares', cookie)
    assert.equal(response.status, 200, response.text.slice(0, 2000))
    assert.include(response.text, '<title data-inertia="">Reverse shares - Tern</title>')
    assert.match(response.text, /<h1[^>]*>Reverse shares<\/h1>/)
    assert.include(response.text, 'A reverse share is a link through which others')
    assert.equal(pageObject(response.raw).component, 'account/reverse_shares')
  })

  test('the page is rendered in the language of the cookie', async ({ assert }) => {
    const { cookie } = await shareUser()
    for (const [language, title] of [
      ['de-DE', 'Umgekehrte Freigaben'],
      ['fr-FR', 'Partages inversés'],
    ]) {
      const response = await page(
        '/account/reverseShares',
        joinCookies(cookie, `language=${language}`)
      )
      assert.include(response.text, `<title data-inertia="">${title} - Tern</title>`)
      assert.match(response.text, new RegExp(`<h1[^>]*>${title}</h1>`))
    }
  })
})

test.group('Pages | reverse share upload page', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('anyone gets the upload page of a live link, with its size limit, expiry and mode, and no cookie yet', async ({
    assert,
  }) => {
    // Visitors' own uploads are off: the link alone opens the page.
    await setConfig('share.allowUnauthenticatedShares', 'false')
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, {
      maxShareSize: '2500000',
      shareExpiration: '2-days',
      simplified: true,
    })
    const response = await page(`/upload/${token}`)
    assert.equal(response.status, 200, response.text.slice(0, 2000))
    assert.include(response.text, '<title data-inertia="">Upload - Tern</title>')
    assert.match(response.text, /<h1[^>]*>Upload<\/h1>/)
    assert.include(response.text, 'Your files can be up to 2.5 MB in total.')
    assert.include(
      response.text,
      'The files you upload here are shared with the person who sent you this link.'
    )
    assert.include(response.text, 'Your share will expire on ')
    assert.match(response.text, /<input[^>]*type="file"[^>]*data-testid="file-input"/)

    const { component, props } = pageObject(response.raw)
    assert.equal(component, 'upload/reverse_share')
    assert.equal(props.token, token)
    assert.equal(props.reverseShare.token, token)
    assert.equal(props.reverseShare.maxShareSize, '2500000')
    assert.isTrue(props.reverseShare.simplified)
    assert.closeTo(
      new Date(props.reverseShare.shareExpiration).getTime() - Date.now(),
      2 * 86_400_000,
      60_000
    )
    // The cookie comes from the lookup the page makes right before creating a share, not from rendering.
    assert.isUndefined(response.setCookies.find((line) => line.startsWith('reverse_share_token=')))
  })

  test('a link that never expires says so and is not simplified', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const response = await page(`/upload/${token}`, joinCookies(owner.cookie, 'language=de-DE'))
    assert.equal(response.status, 200)
    assert.include(response.text, 'Deine Freigabe läuft nie ab.')
    const { props } = pageObject(response.raw)
    assert.isFalse(props.reverseShare.simplified)
    assert.equal(props.reverseShare.shareExpiration, '1970-01-01T00:00:00.000Z')
  })

  test('an unknown or malformed token answers 404 with the invalid-link page', async ({
    assert,
  }) => {
    for (const token of ['unknown-token-123', 'bad$token']) {
      assertInvalidLinkPage(assert, await page(`/upload/${encodeURIComponent(token)}`), token)
    }
  })

  test('an expired link answers 404 with the invalid-link page', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '1-hour' })
    assert.equal((await page(`/upload/${token}`)).status, 200)
    await expire(token)
    assertInvalidLinkPage(assert, await page(`/upload/${token}`), token)
  })

  test('a used-up link answers 404 with the invalid-link page', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 1 })
    await completedReverseShareUpload(token, { 'a.txt': 'hello' })
    assertInvalidLinkPage(assert, await page(`/upload/${token}`), token)
  })

  test('the invalid-link page is translated', async ({ assert }) => {
    const response = await page('/upload/unknown-token-456', 'language=fr-FR')
    assert.equal(response.status, 404)
    assert.include(
      response.text,
      '<title data-inertia="">Ce lien d’envoi n’est pas valide - Tern</title>'
    )
  })
})
