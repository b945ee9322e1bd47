import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import app from '@adonisjs/core/services/app'
import ConfigService, { OBSCURED_MASK } from '#services/config/config_service'
import { configRegistry } from '#extensions/config/registry'
import { signJwt } from '#services/auth/jwt'
import InstanceSecretService from '#services/auth/instance_secret_service'
import { accessTokenFor, accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'
import { confirmedAppUrl } from '#services/links/link_base'

const configService = await app.container.make(ConfigService)

/** Sets a stored value directly (bypassing the API). */
async function store(key: string, value: string | null) {
  await ConfigVariable.updateOrCreate({ key }, { value })
}

async function storedValue(key: string) {
  return (await ConfigVariable.find(key))?.value
}

/** What an admin client sends back for a listed variable: the string value converted by type. */
function asTypedChange(item: { key: string; value: string; type: string }) {
  if (item.value === '') return { key: item.key, value: '' }
  if (item.type === 'number' || item.type === 'filesize')
    return { key: item.key, value: Number(item.value) }
  if (item.type === 'boolean') return { key: item.key, value: item.value === 'true' }
  return { key: item.key, value: item.value }
}

async function adminHeader() {
  return authHeaderFor(await createUser({ admin: true }))
}

test.group('Configs | seeding', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('adds new keys unset, keeps existing values and leaves unknown keys alone', async ({
    assert,
  }) => {
    await ConfigVariable.query().where('key', 'share.maxSize').delete()
    await store('share.shareIdLength', '12')
    await store('removedPlugin.setting', 'kept')

    const added = await configService.seed()

    assert.deepEqual(added, ['share.maxSize'])
    const maxSize = await ConfigVariable.findOrFail('share.maxSize')
    assert.isNull(maxSize.value)
    assert.equal(await storedValue('share.shareIdLength'), '12')
    assert.equal(await storedValue('removedPlugin.setting'), 'kept')
  })

  test('APP_URL gives the public address while it has no value of its own, and never replaces a stored one', async ({
    assert,
  }) => {
    await store('general.appUrl', null)
    assert.isNull(await confirmedAppUrl())

    // An instance started before APP_URL was set: its row exists, unset, and takes the value.
    assert.deepEqual(await configService.seed({ APP_URL: 'https://files.example.org' }), [])
    assert.equal(await storedValue('general.appUrl'), 'https://files.example.org')
    assert.equal(
      await confirmedAppUrl(),
      'https://files.example.org',
      'a stated address counts as confirmed'
    )

    // What an admin stored afterwards stays, whatever the environment says at the next start.
    await store('general.appUrl', 'https://share.example.net')
    await configService.seed({ APP_URL: 'https://files.example.org' })
    assert.equal(await storedValue('general.appUrl'), 'https://share.example.net')

    // A value the setting refuses stops the start, naming the variable.
    await store('general.appUrl', null)
    await assert.rejects(() => configService.seed({ APP_URL: 'files.example.org' }), /APP_URL/)
    assert.isNull(await storedValue('general.appUrl'))
  })

  test('stores a row for every registered variable and adds nothing when run again', async ({
    assert,
  }) => {
    assert.deepEqual(await configService.seed(), [])
    const keys = (await ConfigVariable.all()).map((row) => row.key)
    for (const variable of configRegistry.all()) assert.include(keys, variable.key)
  })
})

test.group('Configs | reading', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('reads typed defaults while values are unset', async ({ assert }) => {
    assert.strictEqual(await configService.get('share.maxSize'), 1000000000)
    assert.strictEqual(await configService.get('share.shareIdLength'), 8)
    assert.strictEqual(await configService.get('general.showHomePage'), true)
    assert.strictEqual(await configService.get('smtp.enabled'), false)
    assert.strictEqual(await configService.get('general.sessionDuration'), '3 months')
    assert.strictEqual(await configService.get('general.appName'), 'Tern')
  })

  test('reads stored values typed, and an empty stored value as the default', async ({
    assert,
  }) => {
    await store('share.maxSize', '2048')
    await store('smtp.enabled', 'true')
    await store('general.appName', '')
    await store('share.defaultExpiration', '2 weeks')
    assert.strictEqual(await configService.get('share.maxSize'), 2048)
    assert.strictEqual(await configService.get('smtp.enabled'), true)
    assert.strictEqual(await configService.get('general.appName'), 'Tern')
    const snapshot = await configService.snapshot()
    assert.strictEqual(snapshot.get('share.defaultExpiration'), '2 weeks')
    assert.strictEqual(snapshot.get('share.maxSize'), 2048)
  })

  test('refuses to read an unknown key', async ({ assert }) => {
    await assert.rejects(
      () => configService.get('nope.nothing'),
      /Unknown config variable "nope.nothing"/
    )
  })

  test('GET /api/configs?ext=1 lists exactly the public variables with their effective values', async ({
    client,
    assert,
  }) => {
    await store('general.appName', 'My Files')
    await store('share.zipCompressionLevel', '3')
    const response = await client.get('/api/configs?ext=1')
    response.assertStatus(200)
    const body = response.body() as { key: string; value: string; type: string }[]
    const publicKeys = configRegistry
      .all()
      .filter((v) => v.public)
      .map((v) => v.key)
    assert.deepEqual(
      body.map((item) => item.key),
      publicKeys
    )
    assert.notInclude(
      body.map((item) => item.key),
      'share.zipCompressionLevel'
    )
    assert.notInclude(
      body.map((item) => item.key),
      'smtp.password'
    )
    assert.deepEqual(Object.keys(body[0]).sort(), ['key', 'type', 'value'])
    const byKey = new Map(body.map((item) => [item.key, item]))
    assert.deepEqual(byKey.get('general.appName'), {
      key: 'general.appName',
      value: 'My Files',
      type: 'string',
    })
    assert.deepEqual(byKey.get('share.maxSize'), {
      key: 'share.maxSize',
      value: '1000000000',
      type: 'filesize',
    })
    assert.deepEqual(byKey.get('general.showHomePage'), {
      key: 'general.showHomePage',
      value: 'true',
      type: 'boolean',
    })
  })
})

test.group('Configs | admin access', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a visitor gets 401 on the admin routes', async ({ client, assert }) => {
    const list = await client.get('/api/configs/admin/share')
    list.assertStatus(401)
    assert.deepEqual(list.body(), {
      statusCode: 401,
      message: 'Unauthorized',
      error: 'Unauthorized',
    })
    const patch = await client
      .patch('/api/configs/admin')
      .json([{ key: 'share.maxSize', value: 5 }])
    patch.assertStatus(401)
    assert.isNull(await storedValue('share.maxSize'))
  })

  test('a signed-in non-admin gets 403 and changes nothing', async ({ client, assert }) => {
    const user = await createUser()
    const list = await client.get('/api/configs/admin/share').header(...(await authHeaderFor(user)))
    list.assertStatus(403)
    assert.deepEqual(list.body(), { statusCode: 403, message: 'Forbidden', error: 'Forbidden' })
    const patch = await client
      .patch('/api/configs/admin')
      .header('Cookie', await accessCookieFor(user))
      .json([{ key: 'share.maxSize', value: 5 }])
    patch.assertStatus(403)
    assert.isNull(await storedValue('share.maxSize'))
  })

  test('an admin is accepted through the access_token cookie or a Bearer header', async ({
    client,
  }) => {
    const admin = await createUser({ admin: true })
    const byCookie = await client
      .get('/api/configs/admin/general')
      .header('Cookie', await accessCookieFor(admin))
    byCookie.assertStatus(200)
    const byBearer = await client
      .get('/api/configs/admin/general')
      .header(...(await authHeaderFor(admin)))
    byBearer.assertStatus(200)
  })

  test('an expired access token is refused', async ({ client }) => {
    const admin = await createUser({ admin: true })
    const issuedAt = Math.floor(Date.now() / 1000) - 16 * 60
    const token = await accessTokenFor(admin, { issuedAt })
    const response = await client
      .get('/api/configs/admin/general')
      .header('Authorization', `Bearer ${token}`)
    response.assertStatus(401)
  })

  test('a token signed with another secret, or with a changed payload, is refused', async ({
    client,
  }) => {
    const user = await createUser()
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      sub: user.id,
      email: user.email,
      isAdmin: true,
      refreshTokenId: null,
      iat: now,
      exp: now + 900,
    }
    const forged = await signJwt(claims, 'not-the-instance-secret')
    ;(
      await client.get('/api/configs/admin/general').header('Authorization', `Bearer ${forged}`)
    ).assertStatus(401)

    const [header, , signature] = (await accessTokenFor(user)).split('.')
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    ;(
      await client.get('/api/configs/admin/general').header('Authorization', `Bearer ${tampered}`)
    ).assertStatus(401)

    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    ;(
      await client.get('/api/configs/admin/general').header('Authorization', `Bearer ${unsigned}`)
    ).assertStatus(401)
  })

  test('a token of a deleted user is refused', async ({ client }) => {
    const admin = await createUser({ admin: true })
    const header = await authHeaderFor(admin)
    await admin.delete()
    ;(await client.get('/api/configs/admin/general').header(...header)).assertStatus(401)
  })

  test('admin rights come from the database, not from the token', async ({ client }) => {
    const admin = await createUser({ admin: true })
    const header = await authHeaderFor(admin)
    admin.isAdmin = false
    await admin.save()
    ;(await client.get('/api/configs/admin/general').header(...header)).assertStatus(403)
  })

  test('a cross-site change authenticated by cookie is refused', async ({ client, assert }) => {
    const admin = await createUser({ admin: true })
    const cookie = await accessCookieFor(admin)
    const foreign = await client
      .patch('/api/configs/admin')
      .header('Cookie', cookie)
      .header('Origin', 'https://evil.example')
      .json([{ key: 'share.maxSize', value: 5 }])
    foreign.assertStatus(403)
    const crossSite = await client
      .patch('/api/configs/admin')
      .header('Cookie', cookie)
      .header('Sec-Fetch-Site', 'cross-site')
      .json([{ key: 'share.maxSize', value: 5 }])
    crossSite.assertStatus(403)
    assert.isNull(await storedValue('share.maxSize'))

    const sameSite = await client
      .patch('/api/configs/admin')
      .header('Cookie', cookie)
      .header('Origin', 'http://localhost:3000')
      .json([{ key: 'share.maxSize', value: 5 }])
    sameSite.assertStatus(200)
    assert.equal(await storedValue('share.maxSize'), '5')
  })
})

test.group('Configs | admin category', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('lists the variables of a category with their metadata', async ({ client, assert }) => {
    await store('share.shareIdLength', '10')
    const response = await client
      .get('/api/configs/admin/share?ext=1')
      .header(...(await adminHeader()))
    response.assertStatus(200)
    const body = response.body() as Record<string, unknown>[]
    assert.deepEqual(
      body.map((item) => item.key),
      configRegistry.category('share')!.variables.map((v) => v.key)
    )
    const idLength = body.find((item) => item.key === 'share.shareIdLength')!
    assert.containsSubset(idLength, {
      key: 'share.shareIdLength',
      name: 'shareIdLength',
      type: 'number',
      value: '10',
      defaultValue: '8',
      secret: false,
      obscured: false,
      allowEdit: true,
    })
    assert.isString(idLength.updatedAt)
    for (const field of [
      'key',
      'value',
      'type',
      'name',
      'secret',
      'defaultValue',
      'updatedAt',
      'obscured',
      'allowEdit',
    ]) {
      assert.property(idLength, field)
    }
    assert.containsSubset(
      body.find((item) => item.key === 'share.zipCompressionLevel')!,
      {
        value: '9',
        secret: true,
      }
    )
  })

  test('masks obscured values: the mask when set, empty when unset', async ({ client, assert }) => {
    const header = await adminHeader()
    const unset = await client.get('/api/configs/admin/smtp').header(...header)
    assert.containsSubset(
      unset.body().find((item: { key: string }) => item.key === 'smtp.password'),
      {
        value: '',
        obscured: true,
      }
    )
    await store('smtp.password', 'hunter22')
    const set = await client.get('/api/configs/admin/smtp').header(...header)
    const password = set.body().find((item: { key: string }) => item.key === 'smtp.password')
    assert.equal(password.value, OBSCURED_MASK)
    assert.notInclude(JSON.stringify(set.body()), 'hunter22')
  })

  test('an unknown category is 404', async ({ client, assert }) => {
    const response = await client.get('/api/configs/admin/nothing').header(...(await adminHeader()))
    response.assertStatus(404)
    assert.deepEqual(response.body(), {
      statusCode: 404,
      message: 'Config category nothing not found',
      error: 'Not Found',
    })
  })
})

test.group('Configs | update', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('stores typed values and answers the updated variables', async ({ client, assert }) => {
    const response = await client
      .patch('/api/configs/admin')
      .header(...(await adminHeader()))
      .json([
        { key: 'share.maxSize', value: 5000 },
        { key: 'share.allowRegistration', value: false },
        { key: 'general.appName', value: 'Files' },
        { key: 'share.maxExpiration', value: '2 weeks' },
        { key: 'oauth.microsoft-tenant', value: 'contoso.onmicrosoft.com' },
      ])
    response.assertStatus(200)
    assert.deepEqual(
      response.body().map((item: { key: string; value: string }) => [item.key, item.value]),
      [
        ['share.maxSize', '5000'],
        ['share.allowRegistration', 'false'],
        ['general.appName', 'Files'],
        ['share.maxExpiration', '2 weeks'],
        ['oauth.microsoft-tenant', 'contoso.onmicrosoft.com'],
      ]
    )
    assert.strictEqual(await configService.get('share.maxSize'), 5000)
    assert.strictEqual(await configService.get('share.allowRegistration'), false)
    const publicList = await client.get('/api/configs')
    assert.deepInclude(publicList.body(), {
      key: 'general.appName',
      value: 'Files',
      type: 'string',
    })
  })

  test('an unknown key is 404 "Config variable {key} not found" and nothing is written', async ({
    client,
    assert,
  }) => {
    const response = await client
      .patch('/api/configs/admin')
      .header(...(await adminHeader()))
      .json([
        { key: 'share.maxSize', value: 5000 },
        { key: 'x.y', value: 'z' },
      ])
    response.assertStatus(404)
    assert.deepEqual(response.body(), {
      statusCode: 404,
      message: 'Config variable x.y not found',
      error: 'Not Found',
    })
    assert.isNull(await storedValue('share.maxSize'))
  })

  test('a value of the wrong JSON type is 400 "Config variable must be of type <type>"', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const cases: [string, unknown, string][] = [
      ['share.shareIdLength', 'ten', 'number'],
      ['share.maxSize', '5000', 'filesize'],
      ['smtp.enabled', 'true', 'boolean'],
      ['general.appName', 42, 'string'],
      ['email.inviteMessage', true, 'text'],
      ['general.sessionDuration', 3, 'timespan'],
    ]
    for (const [key, value, type] of cases) {
      const response = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key, value }])
      response.assertStatus(400)
      assert.deepEqual(response.body(), {
        statusCode: 400,
        message: `Config variable must be of type ${type}`,
        error: 'Bad Request',
      })
      assert.isNull(await storedValue(key), key)
    }
  })

  test('out-of-range and malformed values are 400 with a clear message', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const cases: [string, unknown, string][] = [
      ['share.zipCompressionLevel', 10, 'Zip compression level must be between 0 and 9'],
      ['share.zipCompressionLevel', -1, 'Zip compression level must be between 0 and 9'],
      ['share.shareIdLength', 1, 'Share ID length must be between 2 and 50'],
      ['share.shareIdLength', 51, 'Share ID length must be between 2 and 50'],
      ['share.shareIdLength', 7.5, 'Config variable share.shareIdLength must be an integer'],
      ['smtp.port', 65536, 'SMTP port must be between 0 and 65535'],
      ['share.maxSize', -10, 'Config variable share.maxSize must be a whole number of bytes'],
      [
        'share.maxExpiration',
        'forever',
        'Config variable share.maxExpiration must be a timespan like "7 days" (units: minutes, hours, days, weeks, months, years)',
      ],
      ['general.appUrl', 'ftp://files', 'App URL must be an http(s) URL'],
    ]
    for (const [key, value, message] of cases) {
      const response = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key, value }])
      response.assertStatus(400)
      assert.deepEqual(
        response.body(),
        { statusCode: 400, message, error: 'Bad Request' },
        `${key}=${value}`
      )
      assert.isNull(await storedValue(key), key)
    }
    const tenant = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'oauth.microsoft-tenant', value: 'everyone' }])
    tenant.assertStatus(400)
    assert.match(tenant.body().message, /Microsoft tenant/)
  })

  test('nothing is written when a later item is invalid', async ({ client, assert }) => {
    const response = await client
      .patch('/api/configs/admin')
      .header(...(await adminHeader()))
      .json([
        { key: 'share.shareIdLength', value: 20 },
        { key: 'general.appName', value: 'Changed' },
        { key: 'share.zipCompressionLevel', value: 12 },
      ])
    response.assertStatus(400)
    assert.strictEqual(await configService.get('share.shareIdLength'), 8)
    assert.strictEqual(await configService.get('general.appName'), 'Tern')
  })

  test('"" resets a variable to its default', async ({ client, assert }) => {
    await store('share.shareIdLength', '20')
    const response = await client
      .patch('/api/configs/admin')
      .header(...(await adminHeader()))
      .json([{ key: 'share.shareIdLength', value: '' }])
    response.assertStatus(200)
    assert.containsSubset(response.body(), [
      { key: 'share.shareIdLength', value: '8', defaultValue: '8' },
    ])
    assert.isNull(await storedValue('share.shareIdLength'))
    assert.strictEqual(await configService.get('share.shareIdLength'), 8)
  })

  test('sending the mask back keeps an obscured secret; a new value replaces it', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const set = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'smtp.password', value: 'hunter22' }])
    set.assertStatus(200)
    assert.containsSubset(set.body(), [
      { key: 'smtp.password', value: OBSCURED_MASK, obscured: true },
    ])
    assert.notInclude(JSON.stringify(set.body()), 'hunter22')

    const listed = await client.get('/api/configs/admin/smtp').header(...header)
    const roundTrip = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json(listed.body().map(asTypedChange))
    roundTrip.assertStatus(200)
    assert.strictEqual(await configService.get('smtp.password'), 'hunter22')

    await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'smtp.password', value: 's3cret!!' }])
    assert.strictEqual(await configService.get('smtp.password'), 's3cret!!')

    await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'smtp.password', value: '' }])
    assert.strictEqual(await configService.get('smtp.password'), '')
  })

  test('a body that is not a list of {key, value} is a 400 validation error', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const notArray = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json({ key: 'share.maxSize', value: 5 })
    notArray.assertStatus(400)
    assert.isArray(notArray.body().message)
    assert.equal(notArray.body().error, 'Bad Request')
    const noKey = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ value: 5 }])
    noKey.assertStatus(400)
    assert.isArray(noKey.body().message)
  })
})

test.group('Configs | instance secret', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the JWT secret exists once in the database and signs the access tokens', async ({
    assert,
  }) => {
    const user = await createUser()
    const token = await accessTokenFor(user)
    const rows = await db.from('instance_secrets').where('name', 'jwt')
    assert.lengthOf(rows, 1)
    assert.isAtLeast(rows[0].value.length, 64)
    const body = token.split('.')[1]
    assert.equal(
      await signJwt(JSON.parse(Buffer.from(body, 'base64url').toString()), rows[0].value),
      token
    )
  })

  test('two instances creating the same secret at once end up with one value', async ({
    assert,
  }) => {
    const first = new InstanceSecretService()
    const second = new InstanceSecretService()
    const [a, b] = await Promise.all([
      first.get('race_test', () => 'value-of-first'),
      second.get('race_test', () => 'value-of-second'),
    ])
    assert.equal(a, b)
    assert.lengthOf(await db.from('instance_secrets').where('name', 'race_test'), 1)
    assert.equal(await new InstanceSecretService().get('race_test', () => 'third'), a)
  })
})
