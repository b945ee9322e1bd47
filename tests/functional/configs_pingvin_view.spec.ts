/**
 * What a Pingvin 1.x client sees of the configuration
 * (`/api/configs*`): every category of Pingvin 1.13's admin menu answers 200
 * with exactly Pingvin's keys in Pingvin's order, also when the plugin
 * behind it is disabled; Tern-only keys only with `?ext=1`; `cache` reflects
 * REDIS_URL and is read-only. The expected lists are Pingvin's seed, written
 * out in tests/helpers/pingvin_config_keys.ts rather than read from Tern's
 * catalogue.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import ConfigVariable from '#models/config_variable'
import { configRegistry } from '#extensions/config/registry'
import { authHeaderFor, createUser } from '#tests/helpers/auth'
import { startTernChild, type TernChild } from '#tests/helpers/tern_child'
import { TestRedisServer } from '#tests/helpers/redis_server'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { PINGVIN_CONFIG_KEYS as PINGVIN_KEYS } from '#tests/helpers/pingvin_config_keys'

/** Pingvin's public keys that Tern also makes public (smtp.allowUnauthorizedCertificates stays for admins). */
const PINGVIN_PUBLIC_KEYS = [
  'general.appName',
  'general.appUrl',
  'general.showHomePage',
  'general.sessionDuration',
  'share.allowRegistration',
  'share.allowUnauthenticatedShares',
  'share.maxExpiration',
  'share.shareIdLength',
  'share.maxSize',
  'share.chunkSize',
  'share.autoOpenShareModal',
  'email.enableShareEmailRecipients',
  'smtp.enabled',
  'ldap.enabled',
  'oauth.disablePassword',
  'legal.enabled',
  'legal.imprintText',
  'legal.imprintUrl',
  'legal.privacyPolicyText',
  'legal.privacyPolicyUrl',
]

const LEGAL_KEYS = PINGVIN_KEYS.legal.map((name) => `legal.${name}`)

type AdminItem = {
  key: string
  value: string
  type: string
  defaultValue: string
  allowEdit: boolean
  obscured: boolean
  secret: boolean
  order: number
  updatedAt: string | null
}

function keysOf(body: unknown): string[] {
  return (body as { key: string }[]).map((item) => item.key)
}

function itemOf(body: unknown, key: string): AdminItem {
  const item = (body as AdminItem[]).find((entry) => entry.key === key)
  if (!item) throw new Error(`${key} is not in the answer`)
  return item
}

test.group('Configs | what a Pingvin client sees', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test("each of the nine categories of Pingvin's admin menu answers exactly Pingvin's keys in Pingvin's order", async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    for (const [category, names] of Object.entries(PINGVIN_KEYS)) {
      const response = await client.get(`/api/configs/admin/${category}`).header(...header)
      response.assertStatus(200)
      assert.deepEqual(
        keysOf(response.body()),
        names.map((name) => `${category}.${name}`),
        category
      )
      assert.deepEqual(
        (response.body() as AdminItem[]).map((item) => item.order),
        names.map((_, index) => index),
        category
      )
    }
  })

  test("keys Tern lacks answer Pingvin's defaults, read-only; Tern's own keys stay editable", async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const s3 = (await client.get('/api/configs/admin/s3').header(...header)).body()
    // s3-storage is enabled in this run: its keys are Tern's; useChecksum has no Tern equivalent.
    assert.containsSubset(itemOf(s3, 's3.endpoint'), { allowEdit: true, value: '' })
    assert.containsSubset(itemOf(s3, 's3.useChecksum'), {
      type: 'boolean',
      value: 'true',
      defaultValue: 'true',
      allowEdit: false,
      updatedAt: null,
    })
    assert.containsSubset(itemOf(s3, 's3.secret'), { obscured: true, secret: true })

    const oauth = (await client.get('/api/configs/admin/oauth').header(...header)).body()
    assert.containsSubset(itemOf(oauth, 'oauth.github-clientId'), { allowEdit: true })
    assert.containsSubset(itemOf(oauth, 'oauth.oidc-rolePath'), { value: '', allowEdit: false })
    assert.containsSubset(itemOf(oauth, 'oauth.discord-limitedUsers'), {
      value: '',
      allowEdit: false,
    })

    const ldap = (await client.get('/api/configs/admin/ldap').header(...header)).body()
    if (configRegistry.category('ldap')) {
      // The ldap plugin is enabled in this run: its variables answer, editable.
      assert.containsSubset(itemOf(ldap, 'ldap.url'), { allowEdit: true })
    } else {
      assert.containsSubset(itemOf(ldap, 'ldap.enabled'), {
        type: 'boolean',
        value: 'false',
        secret: false,
        allowEdit: false,
      })
      assert.containsSubset(itemOf(ldap, 'ldap.fieldNameMemberOf'), {
        value: 'memberOf',
        allowEdit: false,
      })
      assert.containsSubset(itemOf(ldap, 'ldap.fieldNameEmail'), {
        value: 'userPrincipalName',
        allowEdit: false,
      })
      assert.containsSubset(itemOf(ldap, 'ldap.bindPassword'), {
        value: '',
        obscured: true,
        allowEdit: false,
      })
      const patch = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key: 'ldap.url', value: 'ldap://x' }])
      patch.assertStatus(400)
      assert.equal(
        patch.body().message,
        'Config variable ldap.url cannot be edited: it belongs to the ldap plugin, which is not enabled (TERN_PLUGINS)'
      )
      assert.isNull(await ConfigVariable.find('ldap.url'))
    }

    const useChecksum = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 's3.useChecksum', value: false }])
    useChecksum.assertStatus(400)
    assert.deepEqual(useChecksum.body(), {
      statusCode: 400,
      message: 'Config variable s3.useChecksum cannot be edited: Tern has no such setting',
      error: 'Bad Request',
    })
    assert.isNull(await ConfigVariable.find('s3.useChecksum'))
    // A key neither Tern nor Pingvin knows is still 404.
    ;(
      await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key: 's3.nothing', value: 1 }])
    ).assertStatus(404)
  })

  test("with ?ext=1 Tern's admin gets its own keys too", async ({ client, assert }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const general = keysOf(
      (await client.get('/api/configs/admin/general?ext=1').header(...header)).body()
    )
    assert.includeMembers(general, ['general.checkForUpdates', 'general.releaseSource'])
    const plainGeneral = keysOf(
      (await client.get('/api/configs/admin/general').header(...header)).body()
    )
    assert.notInclude(plainGeneral, 'general.checkForUpdates')
    assert.notInclude(plainGeneral, 'general.releaseSource')

    assert.include(
      keysOf((await client.get('/api/configs/admin/share?ext=1').header(...header)).body()),
      'share.defaultExpiration'
    )
    const s3 = keysOf((await client.get('/api/configs/admin/s3?ext=1').header(...header)).body())
    assert.include(s3, 's3.forcePathStyle')
    assert.notInclude(s3, 's3.useChecksum')
    assert.deepEqual(
      keysOf((await client.get('/api/configs/admin/legal?ext=1').header(...header)).body()),
      LEGAL_KEYS
    )
    // Categories only Tern has answer either way.
    ;(await client.get('/api/configs/admin/webhook').header(...header)).assertStatus(200)
  })

  test("GET /api/configs has Pingvin's public keys, the five legal ones included, and no Tern-only key without the opt-in", async ({
    client,
    assert,
  }) => {
    await ConfigVariable.updateOrCreate({ key: 'legal.imprintText' }, { value: '# Imprint' })
    const plain = await client.get('/api/configs')
    plain.assertStatus(200)
    assert.deepEqual(keysOf(plain.body()), PINGVIN_PUBLIC_KEYS)
    assert.deepInclude(plain.body(), { key: 'legal.imprintText', value: '# Imprint', type: 'text' })
    assert.deepInclude(plain.body(), { key: 'legal.enabled', value: 'false', type: 'boolean' })

    const ext = keysOf((await client.get('/api/configs?ext=1')).body())
    assert.includeMembers(ext, ['share.defaultExpiration', 'internal.setupFinished', ...LEGAL_KEYS])
    const pingvinOnly = configRegistry
      .all()
      .filter((variable) => variable.public && !PINGVIN_PUBLIC_KEYS.includes(variable.key))
    assert.isAbove(pingvinOnly.length, 0)
    for (const variable of pingvinOnly) assert.notInclude(keysOf(plain.body()), variable.key)
  })

  test('cache reflects REDIS_URL and is read-only', async ({ client, assert }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const response = await client.get('/api/configs/admin/cache').header(...header)
    response.assertStatus(200)
    const redisEnabled = Boolean(process.env.REDIS_URL)
    assert.containsSubset(itemOf(response.body(), 'cache.redis-enabled'), {
      value: String(redisEnabled),
      allowEdit: false,
    })
    assert.containsSubset(itemOf(response.body(), 'cache.ttl'), {
      value: '60',
      type: 'number',
      allowEdit: false,
    })
    assert.containsSubset(itemOf(response.body(), 'cache.maxItems'), {
      value: '1000',
      type: 'number',
      allowEdit: false,
    })
    for (const [key, value] of [
      ['cache.ttl', 5],
      ['cache.redis-url', 'redis://elsewhere:6379'],
      ['cache.redis-enabled', true],
    ] as const) {
      const patch = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key, value }])
      patch.assertStatus(400)
      assert.equal(
        patch.body().message,
        `Config variable ${key} cannot be edited: Tern takes the cache from the REDIS_URL environment variable`
      )
      assert.isNull(await ConfigVariable.find(key))
    }
  })

  test('legal URLs must be http(s); the values reach the public list', async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const bad = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'legal.privacyPolicyUrl', value: 'javascript:alert(1)' }])
    bad.assertStatus(400)
    assert.equal(bad.body().message, 'Privacy policy URL must be an http(s) URL')
    const good = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([
        { key: 'legal.enabled', value: true },
        { key: 'legal.privacyPolicyUrl', value: 'https://example.com/privacy' },
      ])
    good.assertStatus(200)
    const list = (await client.get('/api/configs')).body()
    assert.deepInclude(list, { key: 'legal.enabled', value: 'true', type: 'boolean' })
    assert.deepInclude(list, {
      key: 'legal.privacyPolicyUrl',
      value: 'https://example.com/privacy',
      type: 'string',
    })
  })
})

test.group('Configs | a Pingvin client of a Tern without the plugins', (group) => {
  group.teardown(cleanCommittedData)
  let child: TernChild
  let redis: TestRedisServer
  group.setup(async () => {
    redis = await TestRedisServer.start()
    // No sign-in provider, no s3-storage, no ldap; Redis through REDIS_URL.
    child = await startTernChild({ TERN_PLUGINS: 'local-storage', REDIS_URL: redis.url })
    return async () => {
      await child.stop()
      await redis.stop()
    }
  })

  test("oauth, s3 and ldap answer Pingvin's keys with its defaults; cache says Redis is on without its URL", async ({
    assert,
  }) => {
    const [name, value] = await authHeaderFor(await createUser({ admin: true }))
    const auth = { [name]: value }
    const get = async (path: string) => {
      const response = await fetch(`${child.url}${path}`, { headers: auth })
      assert.equal(response.status, 200, path)
      return response.json()
    }
    for (const category of ['oauth', 's3', 'ldap', 'cache', 'legal', 'general']) {
      assert.deepEqual(
        keysOf(await get(`/api/configs/admin/${category}`)),
        PINGVIN_KEYS[category].map((key) => `${category}.${key}`),
        category
      )
    }
    const oauth = await get('/api/configs/admin/oauth')
    assert.containsSubset(itemOf(oauth, 'oauth.github-enabled'), {
      value: 'false',
      allowEdit: false,
    })
    assert.containsSubset(itemOf(oauth, 'oauth.microsoft-tenant'), {
      value: 'common',
      allowEdit: false,
    })
    assert.containsSubset(itemOf(oauth, 'oauth.oidc-scope'), {
      value: 'openid email profile',
      allowEdit: false,
    })
    assert.containsSubset(itemOf(oauth, 'oauth.allowRegistration'), { allowEdit: true })
    const s3 = await get('/api/configs/admin/s3')
    for (const item of s3 as AdminItem[]) assert.isFalse(item.allowEdit, item.key)
    // Tern's admin (?ext=1) lists only what this Tern has.
    assert.deepEqual(keysOf(await get('/api/configs/admin/oauth?ext=1')), [
      'oauth.allowRegistration',
      'oauth.ignoreTotp',
      'oauth.disablePassword',
    ])

    const cache = await get('/api/configs/admin/cache')
    assert.containsSubset(itemOf(cache, 'cache.redis-enabled'), { value: 'true' })
    assert.containsSubset(itemOf(cache, 'cache.redis-url'), { value: '********', obscured: true })
    assert.notInclude(JSON.stringify(cache), redis.url)
    assert.notInclude(JSON.stringify(cache), String(redis.port))

    const patch = await fetch(`${child.url}/api/configs/admin`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify([{ key: 'oauth.github-clientId', value: 'abc' }]),
    })
    assert.equal(patch.status, 400)
    assert.equal(
      ((await patch.json()) as { message: string }).message,
      'Config variable oauth.github-clientId cannot be edited: it belongs to the github plugin, which is not enabled (TERN_PLUGINS)'
    )

    const publicKeys = keysOf(await (await fetch(`${child.url}/api/configs`)).json())
    assert.deepEqual(publicKeys, PINGVIN_PUBLIC_KEYS)
  }).timeout(60_000)
})
