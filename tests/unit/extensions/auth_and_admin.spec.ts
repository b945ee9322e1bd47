import { test } from '@japa/runner'
import { AdminContributionRegistry } from '#extensions/admin/main'
import type { HttpContext } from '@adonisjs/core/http'
import {
  AuthProviderRegistry,
  type AllyDriver,
  type AuthProviderDefinition,
} from '#extensions/auth/main'

const github: AuthProviderDefinition = {
  id: 'github',
  displayName: 'GitHub',
  enabledKey: 'oauth.github-enabled',
  configKeys: ['oauth.github-clientId', 'oauth.github-clientSecret'],
  driver: () => ({ name: 'github-driver' }) as unknown as AllyDriver,
}

test.group('Auth providers | registry', () => {
  test('registers, lists and returns providers by id', async ({ assert }) => {
    const registry = new AuthProviderRegistry().register(github)
    assert.isTrue(registry.has('github'))
    assert.deepEqual(
      registry.list().map((p) => p.id),
      ['github']
    )
    const driver = await registry
      .get('github')
      .driver({} as HttpContext, { config: {}, callbackUrl: 'http://x/cb', nonce: '' })
    assert.deepEqual(driver, { name: 'github-driver' })
  })

  test('refuses duplicate ids, bad ids and unknown lookups with coded errors', ({ assert }) => {
    const registry = new AuthProviderRegistry().register(github)
    const codeOf = (action: () => unknown) => {
      try {
        action()
      } catch (error) {
        return (error as { code: string }).code
      }
    }
    assert.equal(
      codeOf(() => registry.register(github)),
      'E_AUTH_PROVIDER_EXISTS'
    )
    assert.equal(
      codeOf(() => registry.register({ ...github, id: 'Bad Id' })),
      'E_AUTH_PROVIDER_INVALID'
    )
    assert.equal(
      codeOf(() => registry.get('gitlab')),
      'E_AUTH_PROVIDER_UNKNOWN'
    )
  })
})

test.group('Admin contributions | registry', () => {
  test('reports enabled plugins and only their contributions, in order', ({ assert }) => {
    const registry = new AdminContributionRegistry()
    registry.contribute('s3-storage', {
      menu: [{ key: 'disks', label: 'Disks', path: '/plugins/s3' }],
    })
    registry.contribute('disabled', { resources: [{ name: 'x', label: 'X' }] })
    const manifest = registry.manifest(['local-storage', 's3-storage'])
    assert.deepEqual(manifest.enabledPlugins, ['local-storage', 's3-storage'])
    assert.deepEqual(manifest.contributions, [
      {
        pluginId: 's3-storage',
        resources: [],
        menu: [{ key: 'disks', label: 'Disks', path: '/plugins/s3' }],
        configCategories: [],
      },
    ])
  })

  test('refuses a second contribution of the same plugin', ({ assert }) => {
    const registry = new AdminContributionRegistry().contribute('a', {})
    assert.throws(() => registry.contribute('a', {}), /already contributed/)
  })
})
