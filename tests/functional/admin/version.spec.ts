import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import VersionService, {
  TERN_VERSION,
  isNewer,
  parseRelease,
} from '#services/system/version_service'
import { accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { DEFAULT_RELEASE_SOURCE } from '#services/config/definitions'

const configService = await app.container.make(ConfigService)

/**
 * A local server answering like GitHub's "latest release" API. Each test
 * starts its own (a new URL), so the service's cache never carries over.
 */
async function releaseServer(answer: unknown, status = 200) {
  return startWebhookReceiver({
    path: '/repos/tern/tern/releases/latest',
    defaultReply: {
      status,
      headers: { 'content-type': 'application/json' },
      body: typeof answer === 'string' ? answer : JSON.stringify(answer),
    },
  })
}

function release(tag: string) {
  return {
    tag_name: tag,
    html_url: `https://github.com/tern/tern/releases/tag/${tag}`,
    name: tag,
    draft: false,
  }
}

async function getVersion(client: any) {
  return client
    .get('/api/configs/admin/version')
    .header(...(await authHeaderFor(await createUser({ admin: true }))))
}

test.group('Admin | version', (group) => {
  let servers: WebhookReceiver[] = []
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(async () => {
    await Promise.all(servers.map((server) => server.close()))
    servers = []
  })

  async function useSource(server: WebhookReceiver) {
    servers.push(server)
    await configService.update([
      { key: 'general.checkForUpdates', value: true },
      { key: 'general.releaseSource', value: server.url },
    ])
  }

  test('a newer release: updateAvailable true with the release page', async ({
    client,
    assert,
  }) => {
    const server = await releaseServer(release('v0.24.0'))
    await useSource(server)
    const response = await getVersion(client)
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      version: '0.23.1',
      latestVersion: '0.24.0',
      updateAvailable: true,
      releaseUrl: 'https://github.com/tern/tern/releases/tag/v0.24.0',
    })
    assert.equal(server.received.length, 1)
    assert.equal(server.received[0].method, 'GET')
    assert.equal(server.received[0].headers['user-agent'], `Tern/${TERN_VERSION}`)
  })

  test('the same version: updateAvailable false', async ({ client, assert }) => {
    await useSource(await releaseServer(release('v0.23.1')))
    const response = await getVersion(client)
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      version: '0.23.1',
      latestVersion: '0.23.1',
      updateAvailable: false,
      releaseUrl: 'https://github.com/tern/tern/releases/tag/v0.23.1',
    })
  })

  test('an older release (this build is ahead): updateAvailable false', async ({
    client,
    assert,
  }) => {
    await useSource(await releaseServer(release('0.22.0')))
    const response = await getVersion(client)
    assert.containsSubset(response.body(), { latestVersion: '0.22.0', updateAvailable: false })
  })

  test('the answer is cached: a second request does not ask the source again', async ({
    client,
    assert,
  }) => {
    const server = await releaseServer(release('v1.0.0'))
    await useSource(server)
    ;(await getVersion(client)).assertStatus(200)
    const again = await getVersion(client)
    assert.containsSubset(again.body(), { latestVersion: '1.0.0', updateAvailable: true })
    assert.equal(server.received.length, 1)
  })

  test('a source answering 500 gives latestVersion null, not an error', async ({
    client,
    assert,
  }) => {
    await useSource(await releaseServer({ message: 'boom' }, 500))
    const response = await getVersion(client)
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      version: '0.23.1',
      latestVersion: null,
      updateAvailable: false,
      releaseUrl: null,
    })
  })

  test('malformed answers give latestVersion null', async ({ client, assert }) => {
    for (const body of ['not json', '{"name": "no tag"}', '[]', '{"tag_name": 42}']) {
      await useSource(await releaseServer(body))
      const response = await getVersion(client)
      response.assertStatus(200)
      assert.containsSubset(response.body(), { latestVersion: null, updateAvailable: false }, body)
    }
  })

  test('a source that is down answers at once with latestVersion null', async ({
    client,
    assert,
  }) => {
    const server = await releaseServer(release('v9.9.9'))
    const url = server.url
    await server.close()
    await configService.update([
      { key: 'general.checkForUpdates', value: true },
      { key: 'general.releaseSource', value: url },
    ])
    const started = Date.now()
    const response = await getVersion(client)
    response.assertStatus(200)
    assert.containsSubset(response.body(), {
      latestVersion: null,
      updateAvailable: false,
      releaseUrl: null,
    })
    assert.isBelow(Date.now() - started, 2000)
  })

  test('a source that hangs is given up after 3 seconds', async ({ client, assert }) => {
    const server = await startWebhookReceiver({ path: '/releases/latest', defaultReply: 'hang' })
    await useSource(server)
    const started = Date.now()
    const response = await getVersion(client)
    const elapsed = Date.now() - started
    response.assertStatus(200)
    assert.containsSubset(response.body(), { latestVersion: null, updateAvailable: false })
    assert.isAtLeast(elapsed, 2900)
    assert.isBelow(elapsed, 4500)
    assert.equal(server.received.length, 1)
  }).timeout(15000)

  test('with general.checkForUpdates off, the source is not asked', async ({ client, assert }) => {
    const server = await releaseServer(release('v2.0.0'))
    await useSource(server)
    await configService.update([{ key: 'general.checkForUpdates', value: false }])
    const response = await getVersion(client)
    assert.deepEqual(response.body(), {
      version: '0.23.1',
      latestVersion: null,
      updateAvailable: false,
      releaseUrl: null,
    })
    assert.equal(server.received.length, 0)
  })

  test('concurrent requests share one call to the source', async ({ client, assert }) => {
    const server = await releaseServer(release('v0.30.0'))
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(release('v0.30.0')),
      delayMs: 300,
    })
    await useSource(server)
    const header = await authHeaderFor(await createUser({ admin: true }))
    const responses = await Promise.all(
      [1, 2, 3].map(() => client.get('/api/configs/admin/version').header(...header))
    )
    for (const response of responses) assert.equal(response.body().latestVersion, '0.30.0')
    assert.equal(server.received.length, 1)
  })

  test('visitors get 401 and non-admins 403', async ({ client, assert }) => {
    const visitor = await client.get('/api/configs/admin/version')
    visitor.assertStatus(401)
    const user = await createUser()
    const forbidden = await client
      .get('/api/configs/admin/version')
      .header('Cookie', await accessCookieFor(user))
    forbidden.assertStatus(403)
    assert.deepEqual(forbidden.body(), {
      statusCode: 403,
      message: 'Forbidden',
      error: 'Forbidden',
    })
  })
})

test.group('Admin | version settings', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test("general lists checkForUpdates and releaseSource with their defaults (Tern's view, ?ext=1)", async ({
    client,
    assert,
  }) => {
    const response = await client
      .get('/api/configs/admin/general?ext=1')
      .header(...(await authHeaderFor(await createUser({ admin: true }))))
    const byKey = new Map(response.body().map((item: { key: string }) => [item.key, item]))
    assert.containsSubset(byKey.get('general.checkForUpdates'), {
      type: 'boolean',
      value: 'false',
      secret: true,
    })
    assert.containsSubset(byKey.get('general.releaseSource'), {
      type: 'string',
      value: DEFAULT_RELEASE_SOURCE,
    })
  })

  test('a release source that is not an http(s) URL is refused with 400', async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    for (const value of ['ftp://example.com/latest', 'not a url', 'file:///etc/passwd']) {
      const response = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key: 'general.releaseSource', value }])
      response.assertStatus(400)
      assert.equal(response.body().message, 'Release source must be an http(s) URL')
    }
  })
})

test.group('Admin | version parsing', () => {
  test('reads GitHub-style releases', ({ assert }) => {
    assert.deepEqual(parseRelease(release('v1.2.3')), {
      version: '1.2.3',
      url: 'https://github.com/tern/tern/releases/tag/v1.2.3',
    })
    assert.deepEqual(parseRelease([release('v2.0.0'), release('v1.0.0')]), {
      version: '2.0.0',
      url: 'https://github.com/tern/tern/releases/tag/v2.0.0',
    })
    assert.deepEqual(parseRelease({ tag_name: 'v1.0.0', html_url: 'javascript:alert(1)' }), {
      version: '1.0.0',
      url: null,
    })
    assert.isNull(parseRelease({ tag_name: '' }))
    assert.isNull(parseRelease(null))
  })

  test('compares versions: newer semver, or a different non-semver tag', ({ assert }) => {
    assert.isTrue(isNewer('0.23.2', '0.23.1'))
    assert.isTrue(isNewer('1.0.0', '0.23.1'))
    assert.isFalse(isNewer('0.23.1', '0.23.1'))
    assert.isFalse(isNewer('0.23.1-beta.1', '0.23.1'))
    assert.isTrue(isNewer('nightly-2026', '0.23.1'))
  })

  test('a service with a short timeout gives up on a hanging source in time', async ({
    assert,
  }) => {
    const server = await startWebhookReceiver({ defaultReply: 'hang' })
    try {
      const service = new VersionService({ timeoutMs: 200 })
      const started = Date.now()
      assert.isNull(await service.latestRelease(server.url))
      assert.isBelow(Date.now() - started, 1500)
    } finally {
      await server.close()
    }
  })
})
