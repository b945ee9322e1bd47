import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import Share from '#models/share'
import ShareSecurity from '#models/share_security'
import ShareRecipient from '#models/share_recipient'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import {
  api,
  cleanupShareTests,
  forEachDisk,
  newShareId,
  ownerCookieOf,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

forEachDisk('Shares | creation', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('creates a share and answers 201 with exactly id, name, expiration and description', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    // Recipients need sharing by mail on (else 400, see tests/functional/reverse_shares/mails.spec.ts).
    await setConfig('email.enableShareEmailRecipients', 'true')
    await setConfig('smtp.enabled', 'true')
    const id = newShareId()
    const response = await api('POST', '/api/shares', {
      cookie,
      json: {
        id,
        name: 'Holiday',
        description: 'Photos',
        expiration: '1-day',
        recipients: ['a@example.com'],
        security: { password: 'secret', maxViews: 3 },
        unknown: 'ignored',
      },
    })
    assert.equal(response.status, 201)
    assert.sameMembers(Object.keys(response.json), ['id', 'name', 'expiration', 'description'])
    assert.equal(response.json.id, id)
    assert.equal(response.json.name, 'Holiday')
    const expiresIn = DateTime.fromISO(response.json.expiration).diffNow('hours').hours
    assert.closeTo(expiresIn, 24, 0.1)
    const security = await ShareSecurity.findByOrFail('shareId', id)
    assert.equal(security.maxViews, 3)
    assert.notEqual(security.password, 'secret')
    assert.deepEqual(
      (await ShareRecipient.query().where('shareId', id)).map((r) => r.email),
      ['a@example.com']
    )
  })

  test('a share that never expires reports epoch 0 and null name and description', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const response = await api('POST', '/api/shares', {
      cookie,
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(response.status, 201)
    assert.deepEqual(response.json, {
      id: response.json.id,
      name: null,
      expiration: '1970-01-01T00:00:00.000Z',
      description: null,
    })
    assert.isNull((await Share.findOrFail(response.json.id)).expiration)
  })

  test('refuses a share id already in use with 400', async ({ assert }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await api('POST', '/api/shares', { cookie, json: { id, expiration: 'never' } })
    const response = await api('POST', '/api/shares', { cookie, json: { id, expiration: 'never' } })
    assert.equal(response.status, 400)
    assert.deepEqual(response.json, {
      statusCode: 400,
      message: 'Share id already in use',
      error: 'Bad Request',
    })
  })

  test('validates id, name, description, password, maxViews and expiration', async ({ assert }) => {
    const { cookie } = await shareUser()
    const cases: [Record<string, unknown>, string | null][] = [
      [{ id: 'ab' }, null],
      [{ id: 'bad id!' }, 'ID can only contain letters, numbers, underscores and hyphens'],
      [{ id: 'x'.repeat(51) }, null],
      [{ id: newShareId(), name: 'ab' }, null],
      [{ id: newShareId(), name: 'n'.repeat(31) }, null],
      [{ id: newShareId(), description: 'd'.repeat(513) }, null],
      [{ id: newShareId(), security: { password: 'ab' } }, null],
      [{ id: newShareId(), security: { maxViews: 0 } }, null],
      [{ id: newShareId(), expiration: '3-fortnights' }, null],
      [{ id: newShareId(), recipients: ['not-an-email'] }, null],
    ]
    for (const [body, message] of cases) {
      const response = await api('POST', '/api/shares', {
        cookie,
        json: { expiration: 'never', ...body },
      })
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.json.error, 'Bad Request')
      assert.isArray(response.json.message)
      if (message) assert.include(response.json.message, message)
    }
    assert.equal(
      await Share.query()
        .count('* as total')
        .first()
        .then((r) => Number(r!.$extras.total)),
      0
    )
  })

  test('caps the expiration by share.maxExpiration and refuses "never" while a maximum is set', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    await setConfig('share.maxExpiration', '2 days')
    for (const expiration of ['3-days', '1-week', 'never']) {
      const response = await api('POST', '/api/shares', {
        cookie,
        json: { id: newShareId(), expiration },
      })
      assert.equal(response.status, 400, expiration)
      assert.equal(response.json.message, 'Expiration date exceeds maximum expiration date')
    }
    const ok = await api('POST', '/api/shares', {
      cookie,
      json: { id: newShareId(), expiration: '47-hours' },
    })
    assert.equal(ok.status, 201)
  })

  test('answers 401 to visitors while unauthenticated shares are off', async ({ assert }) => {
    const response = await api('POST', '/api/shares', {
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(response.status, 401)
    assert.equal(response.json.error, 'Unauthorized')
  })

  test('lets visitors create a share owned by their browser when unauthenticated shares are on', async ({
    assert,
  }) => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const id = newShareId()
    const response = await api('POST', '/api/shares', { json: { id, expiration: '1-hour' } })
    assert.equal(response.status, 201)
    const cookie = ownerCookieOf(response)
    assert.isNotNull(cookie)
    assert.match(
      response.setCookies.find((c) => c.startsWith('tern_share_owner='))!,
      /HttpOnly/i
    )
    const share = await Share.findOrFail(id)
    assert.isNull(share.creatorId)
    assert.isString(share.ownerTokenHash)
    assert.notInclude(share.ownerTokenHash!, cookie!.split('=')[1])

    const second = await api('POST', '/api/shares', {
      cookie,
      json: { id: newShareId(), expiration: '1-hour' },
    })
    assert.isUndefined(second.cookies.tern_share_owner, 'the same browser keeps its token')
    assert.equal((await Share.findOrFail(second.json.id)).ownerTokenHash, share.ownerTokenHash)
  })

  test('runs the share:before_create filter and emits share:created', async ({ assert }) => {
    const { cookie, user } = await shareUser()
    receivedEvents.length = 0
    const id = newShareId()
    const response = await api('POST', '/api/shares', {
      cookie,
      json: { id, name: 'fixture:abc', expiration: 'never' },
    })
    assert.equal(response.status, 201)
    assert.equal(response.json.name, 'ABC')
    assert.equal(response.json.description, 'tagged by fixture')
    assert.deepInclude(receivedEvents, {
      name: 'share:created',
      payload: { shareId: id, creatorId: user.id },
    })
  })
})

test.group('Shares | id availability', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('answers exactly {isAvailable}', async ({ assert }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    const free = await api('GET', `/api/shares/isShareIdAvailable/${id}`)
    assert.equal(free.status, 200)
    assert.deepEqual(free.json, { isAvailable: true })
    await api('POST', '/api/shares', { cookie, json: { id, expiration: 'never' } })
    const taken = await api('GET', `/api/shares/isShareIdAvailable/${id}`)
    assert.deepEqual(taken.json, { isAvailable: false })
  })
})
