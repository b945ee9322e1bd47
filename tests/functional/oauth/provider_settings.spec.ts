/**
 * Each sign-in provider's settings come from its plugin manifest
 * (`signInSettings` of #extensions/auth/settings) and join the core "Social
 * Login" category: the keys and their order are Pingvin Share's, as before
 * they moved out of the core; a provider plugin that is not enabled offers
 * none; the registry refuses a bad extension.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import { ConfigRegistry, configRegistry } from '#extensions/config/registry'
import type { PluginManifest } from '#extensions/plugins/define_plugin'
import { registerCoreConfigCategories } from '#services/config/definitions'
import { authHeaderFor, createUser } from '#tests/helpers/auth'
import { manifest as discord } from '#plugins/discord/manifest'
import { manifest as github } from '#plugins/github/manifest'
import { manifest as google } from '#plugins/google/manifest'
import { manifest as microsoft } from '#plugins/microsoft/manifest'
import { manifest as oidc } from '#plugins/oidc/manifest'

/** The "Social Login" keys in Pingvin Share's order (and Tern's before the move). */
const SOCIAL_LOGIN_KEYS = [
  'oauth.allowRegistration',
  'oauth.ignoreTotp',
  'oauth.disablePassword',
  'oauth.github-enabled',
  'oauth.github-clientId',
  'oauth.github-clientSecret',
  'oauth.google-enabled',
  'oauth.google-clientId',
  'oauth.google-clientSecret',
  'oauth.microsoft-enabled',
  'oauth.microsoft-tenant',
  'oauth.microsoft-clientId',
  'oauth.microsoft-clientSecret',
  'oauth.discord-enabled',
  'oauth.discord-limitedGuild',
  'oauth.discord-clientId',
  'oauth.discord-clientSecret',
  'oauth.oidc-enabled',
  'oauth.oidc-discoveryUri',
  'oauth.oidc-usernameClaim',
  'oauth.oidc-scope',
  'oauth.oidc-clientId',
  'oauth.oidc-clientSecret',
  'oauth.oidc-signOut',
]

/** A registry as the plugin loader builds it with only `manifests` enabled (in that load order). */
function registryWith(manifests: PluginManifest[]): ConfigRegistry {
  const registry = new ConfigRegistry()
  registerCoreConfigCategories(registry)
  for (const manifest of manifests) {
    for (const entry of manifest.config ?? [])
      registry.defineCategory({ ...entry, source: manifest.id })
  }
  return registry
}

/**
 * Boots the application in a child process with `plugins` enabled
 * (tests/fixtures/plugins/boot_app.ts): its providers and oauth keys.
 */
function bootWith(plugins: string) {
  return new Promise<{ providers: string[]; keys: string[] }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import=@poppinss/ts-exec', 'tests/fixtures/plugins/boot_app.ts'],
      {
        cwd: fileURLToPath(app.appRoot),
        env: { ...process.env, TERN_PLUGINS: plugins },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`))
        const { providers, oauthKeys } = JSON.parse(stdout)
        resolve({ providers, keys: oauthKeys })
      }
    )
  })
}

/** The code of the error `action` throws. */
function codeOf(action: () => unknown): string | undefined {
  try {
    action()
  } catch (error) {
    return (error as { code?: string }).code
  }
}

test.group('Social login | provider settings from the plugins', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the admin API lists the Social Login keys in Pingvin order, each from its plugin', async ({
    client,
    assert,
  }) => {
    const admin = await authHeaderFor(await createUser({ admin: true }))
    // Tern's view (?ext=1); a Pingvin client's is in tests/functional/configs_pingvin_view.spec.ts.
    const response = await client.get('/api/configs/admin/oauth?ext=1').header(...admin)
    response.assertStatus(200)
    const body = response.body() as { key: string; type: string; obscured?: boolean }[]
    assert.deepEqual(
      body.map((item) => item.key),
      SOCIAL_LOGIN_KEYS
    )
    assert.equal(configRegistry.category('oauth')?.displayName, 'Social Login')
    assert.equal(configRegistry.find('oauth.github-clientId')?.source, 'github')
    assert.equal(configRegistry.find('oauth.microsoft-tenant')?.source, 'microsoft')
    assert.equal(configRegistry.find('oauth.allowRegistration')?.source, 'core')
    for (const provider of ['github', 'google', 'microsoft', 'discord', 'oidc']) {
      assert.equal(configRegistry.find(`oauth.${provider}-enabled`)?.type, 'boolean')
      assert.isTrue(configRegistry.find(`oauth.${provider}-clientSecret`)?.obscured, provider)
    }

    const categories = await client.get('/api/configs/admin').header(...admin)
    const names = (categories.body() as { name?: string; displayName?: string }[]).map(
      (c) => c.displayName ?? c.name
    )
    assert.deepEqual(names.slice(0, 5), ['General', 'Share', 'Email', 'SMTP', 'Social Login'])

    // Visitors still see only the public oauth key.
    const publicKeys = ((await client.get('/api/configs')).body() as { key: string }[]).map(
      (item) => item.key
    )
    assert.deepEqual(
      publicKeys.filter((key) => key.startsWith('oauth.')),
      ['oauth.disablePassword']
    )
  })

  test('the rules moved with the settings: tenant and guild values are checked', async ({
    client,
    assert,
  }) => {
    const admin = await authHeaderFor(await createUser({ admin: true }))
    const tenant = await client
      .patch('/api/configs/admin')
      .header(...admin)
      .json([{ key: 'oauth.microsoft-tenant', value: 'everyone' }])
    tenant.assertStatus(400)
    assert.match(JSON.stringify(tenant.body()), /Microsoft tenant must be/)
    const guild = await client
      .patch('/api/configs/admin')
      .header(...admin)
      .json([{ key: 'oauth.discord-limitedGuild', value: 'abc' }])
    guild.assertStatus(400)
    const uri = await client
      .patch('/api/configs/admin')
      .header(...admin)
      .json([{ key: 'oauth.oidc-discoveryUri', value: 'ftp://x' }])
    uri.assertStatus(400)
  })

  test('a real start without the github and microsoft plugins offers neither their provider nor their settings', async ({
    assert,
  }) => {
    const started = await bootWith('local-storage,email,discord,oidc,google')
    assert.deepEqual(started.providers, ['discord', 'oidc', 'google'])
    assert.deepEqual(
      started.keys,
      SOCIAL_LOGIN_KEYS.filter(
        (key) => !key.startsWith('oauth.github-') && !key.startsWith('oauth.microsoft-')
      )
    )
  }).timeout(150_000)

  test('a provider plugin that is not enabled offers no settings; load order does not change the order', ({
    assert,
  }) => {
    const registry = registryWith([oidc, google, discord])
    const keys = registry.category('oauth')!.variables.map((variable) => variable.key)
    assert.deepEqual(
      keys,
      SOCIAL_LOGIN_KEYS.filter(
        (key) => !key.startsWith('oauth.github-') && !key.startsWith('oauth.microsoft-')
      )
    )
    assert.isUndefined(registry.find('oauth.github-enabled'))
    // Every provider, loaded in the test run's plugin order, gives Pingvin's order.
    assert.deepEqual(
      registryWith([oidc, github, google, discord, microsoft])
        .category('oauth')!
        .variables.map((v) => v.key),
      SOCIAL_LOGIN_KEYS
    )
  })

  test('extensions are checked like categories: unknown category, taken key, wrong prefix', ({
    assert,
  }) => {
    const registry = registryWith([github])
    assert.equal(
      codeOf(() => registry.defineCategory({ id: 'nope', extend: true, variables: [] })),
      'E_CONFIG_INVALID_DEFINITION'
    )
    assert.equal(
      codeOf(() => registry.defineCategory({ ...github.config![0], source: 'again' })),
      'E_CONFIG_DUPLICATE_KEY'
    )
    assert.equal(
      codeOf(() =>
        registry.defineCategory({
          id: 'oauth',
          extend: true,
          variables: [{ key: 'share.gitlab-enabled', type: 'boolean', defaultValue: 'false' }],
        })
      ),
      'E_CONFIG_INVALID_DEFINITION'
    )
    // Nothing of a refused extension stays; one without orders goes after the category's variables.
    const category = registry.defineCategory({
      id: 'oauth',
      extend: true,
      variables: [{ key: 'oauth.gitlab-enabled', type: 'boolean', defaultValue: 'false' }],
    })
    assert.equal(category.variables.at(-1)?.key, 'oauth.gitlab-enabled')
    assert.isUndefined(registry.find('share.gitlab-enabled'))
  })
})
