import { test } from '@japa/runner'
import Share from '#models/share'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  shareUser,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

test.group('Reverse shares | editing a share made through a link', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('its expiration is set by the link: PATCH refuses to change it and keeps it', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '2-days' })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    const before = await Share.findOrFail(upload.shareId)

    for (const expiration of ['never', '1-year', '1-minute']) {
      const response = await api('PATCH', `/api/shares/${upload.shareId}`, {
        cookie: upload.cookie,
        json: { expiration },
      })
      assert.equal(response.status, 400, expiration)
      assert.equal(
        response.json.message,
        'The expiration of a share uploaded through a reverse share link is set by the link'
      )
    }
    const after = await Share.findOrFail(upload.shareId)
    assert.equal(after.expiration?.toISO(), before.expiration?.toISO())
  })

  test('its other settings can still be edited', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    const response = await api('PATCH', `/api/shares/${upload.shareId}`, {
      cookie: upload.cookie,
      json: { name: 'Renamed', security: { maxViews: 3 } },
    })
    assert.equal(response.status, 200)
    assert.equal(response.json.name, 'Renamed')
  })

  test('an ordinary share keeps an editable expiration', async ({ assert }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createCompletedShare({ cookie, id, files: { 'a.txt': 'a' } })
    const response = await api('PATCH', `/api/shares/${id}`, {
      cookie,
      json: { expiration: '3-days' },
    })
    assert.equal(response.status, 200)
  })
})
