import { test } from '@japa/runner'
import { ConfigRegistry, ConfigDefinitionException } from '#extensions/config/registry'
import { checkValue } from '#extensions/config/values'
import {
  DEFAULT_RELEASE_SOURCE,
  coreConfigCategories,
  registerCoreConfigCategories,
} from '#services/config/definitions'
import { validateMicrosoftTenant } from '#plugins/microsoft/manifest'
import type { ConfigCategoryDefinition } from '#extensions/config/types'

const s3: ConfigCategoryDefinition = {
  id: 's3',
  displayName: 'S3',
  order: 100,
  source: 's3-storage',
  variables: [
    { key: 's3.bucket', type: 'string', defaultValue: '' },
    { key: 's3.secret', type: 'string', defaultValue: '', obscured: true, order: 5 },
    { key: 's3.forcePathStyle', type: 'boolean', defaultValue: 'false', order: 1 },
  ],
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    if (!(error instanceof ConfigDefinitionException)) throw error
    return (error as ConfigDefinitionException).code
  }
  return undefined
}

test.group('Config registry | defineCategory', () => {
  test('registers a category with resolved defaults and sorted variables', ({ assert }) => {
    const registry = new ConfigRegistry()
    registry.defineCategory(s3)
    const bucket = registry.find('s3.bucket')!
    assert.deepInclude(bucket, {
      key: 's3.bucket',
      category: 's3',
      name: 'bucket',
      public: false,
      obscured: false,
      allowEdit: true,
      order: 0,
    })
    assert.deepEqual(
      registry.category('s3')!.variables.map((v) => v.key),
      ['s3.bucket', 's3.forcePathStyle', 's3.secret']
    )
    assert.equal(registry.category('s3')!.source, 's3-storage')
    assert.isUndefined(registry.find('s3.unknown'))
  })

  test('orders categories by their order and lists all variables in that order', ({ assert }) => {
    const registry = new ConfigRegistry()
    registry.defineCategory(s3)
    registerCoreConfigCategories(registry)
    assert.deepEqual(
      registry.categories().map((c) => c.id),
      ['general', 'share', 'email', 'smtp', 'oauth', 'legal', 's3', 'internal']
    )
    assert.equal(registry.all()[0].key, 'general.appName')
    assert.equal(registry.all().at(-1)!.key, 'internal.setupFinished')
    assert.equal(registry.all().at(-2)!.key, 's3.secret')
  })

  test('refuses a second category with the same id', ({ assert }) => {
    const registry = new ConfigRegistry()
    registry.defineCategory(s3)
    assert.equal(
      codeOf(() => registry.defineCategory({ ...s3, variables: [] })),
      'E_CONFIG_DUPLICATE_CATEGORY'
    )
  })

  test('refuses a key that is repeated inside the definition', ({ assert }) => {
    const registry = new ConfigRegistry()
    const code = codeOf(() =>
      registry.defineCategory({
        id: 'x',
        displayName: 'X',
        order: 1,
        variables: [
          { key: 'x.a', type: 'string', defaultValue: '' },
          { key: 'x.a', type: 'number', defaultValue: '1' },
        ],
      })
    )
    assert.equal(code, 'E_CONFIG_DUPLICATE_KEY')
    assert.isUndefined(registry.category('x'), 'nothing is registered when the definition fails')
    assert.isUndefined(registry.find('x.a'))
  })

  test('refuses a plugin category that reuses a core category id', ({ assert }) => {
    const registry = new ConfigRegistry()
    registerCoreConfigCategories(registry)
    registerCoreConfigCategories(registry) // idempotent
    assert.equal(
      codeOf(() =>
        registry.defineCategory({
          id: 'share',
          displayName: 'Mine',
          order: 1,
          variables: [{ key: 'share.maxSize', type: 'number', defaultValue: '1' }],
        })
      ),
      'E_CONFIG_DUPLICATE_CATEGORY'
    )
  })

  test('refuses malformed definitions with E_CONFIG_INVALID_DEFINITION', ({ assert }) => {
    const base = { id: 'bad', displayName: 'Bad', order: 1 }
    const cases: ConfigCategoryDefinition[] = [
      { ...base, id: 'Bad Id', variables: [] },
      { ...base, displayName: '', variables: [] },
      { ...base, variables: [{ key: 'other.a', type: 'string', defaultValue: '' }] },
      { ...base, variables: [{ key: 'bad.', type: 'string', defaultValue: '' }] },
      { ...base, variables: [{ key: 'bad.a', type: 'color' as never, defaultValue: '' }] },
      { ...base, variables: [{ key: 'bad.a', type: 'number', defaultValue: 'ten' }] },
      { ...base, variables: [{ key: 'bad.a', type: 'boolean', defaultValue: 'yes' }] },
      { ...base, variables: [{ key: 'bad.a', type: 'timespan', defaultValue: '3 fortnights' }] },
      { ...base, variables: [{ key: 'bad.a', type: 'filesize', defaultValue: '-1' }] },
      {
        ...base,
        variables: [
          { key: 'bad.a', type: 'number', defaultValue: '12', validation: { min: 0, max: 9 } },
        ],
      },
      {
        ...base,
        variables: [
          { key: 'bad.a', type: 'number', defaultValue: '1', validation: { min: 5, max: 1 } },
        ],
      },
      {
        ...base,
        variables: [
          { key: 'bad.a', type: 'string', defaultValue: 'x', public: true, obscured: true },
        ],
      },
    ]
    for (const definition of cases) {
      const registry = new ConfigRegistry()
      assert.equal(
        codeOf(() => registry.defineCategory(definition)),
        'E_CONFIG_INVALID_DEFINITION',
        JSON.stringify(definition.variables[0] ?? definition)
      )
    }
  })
})

test.group('Config registry | core definitions', () => {
  test('define every core variable with its type, default and visibility', ({ assert }) => {
    const registry = new ConfigRegistry()
    registerCoreConfigCategories(registry)
    const expected: [string, string, string, boolean][] = [
      ['general.appName', 'string', 'Tern', true],
      ['general.appUrl', 'string', 'http://localhost:3000', true],
      ['general.secureCookies', 'boolean', 'false', false],
      ['general.showHomePage', 'boolean', 'true', true],
      ['general.sessionDuration', 'timespan', '3 months', true],
      ['general.checkForUpdates', 'boolean', 'false', false],
      ['general.releaseSource', 'string', DEFAULT_RELEASE_SOURCE, false],
      ['share.allowRegistration', 'boolean', 'true', true],
      ['share.allowUnauthenticatedShares', 'boolean', 'false', true],
      ['share.maxExpiration', 'timespan', '0 days', true],
      ['share.defaultExpiration', 'timespan', '7 days', true],
      ['share.shareIdLength', 'number', '8', true],
      ['share.maxSize', 'filesize', '1000000000', true],
      ['share.zipCompressionLevel', 'number', '9', false],
      ['share.chunkSize', 'filesize', '10000000', true],
      ['share.autoOpenShareModal', 'boolean', 'false', true],
      ['email.enableShareEmailRecipients', 'boolean', 'false', true],
      ['email.shareRecipientsSubject', 'string', 'Files shared with you', false],
      ['email.reverseShareSubject', 'string', 'Reverse share link used', false],
      ['smtp.enabled', 'boolean', 'false', true],
      ['smtp.allowUnauthorizedCertificates', 'boolean', 'false', false],
      ['smtp.host', 'string', '', false],
      ['smtp.port', 'number', '0', false],
      ['smtp.email', 'string', '', false],
      ['smtp.username', 'string', '', false],
      ['smtp.password', 'string', '', false],
      ['oauth.allowRegistration', 'boolean', 'true', false],
      ['oauth.ignoreTotp', 'boolean', 'true', false],
      ['oauth.disablePassword', 'boolean', 'false', true],
      ['legal.enabled', 'boolean', 'false', true],
      ['legal.imprintText', 'text', '', true],
      ['legal.imprintUrl', 'string', '', true],
      ['legal.privacyPolicyText', 'text', '', true],
      ['legal.privacyPolicyUrl', 'string', '', true],
      ['internal.setupFinished', 'boolean', 'false', true],
    ]
    for (const [key, type, defaultValue, isPublic] of expected) {
      const variable = registry.find(key)
      assert.exists(variable, key)
      assert.deepInclude(variable!, { type, defaultValue, public: isPublic }, key)
    }
    // Each provider's oauth.<provider>-* variables come from its plugin (tests/functional/oauth/provider_settings.spec.ts).
    for (const provider of ['github', 'google', 'microsoft', 'discord', 'oidc']) {
      assert.isUndefined(registry.find(`oauth.${provider}-enabled`), provider)
    }
    assert.isTrue(registry.find('smtp.password')!.obscured)
    assert.deepEqual(
      registry.categories().map((c) => c.displayName),
      ['General', 'Share', 'Email', 'SMTP', 'Social Login', 'Legal', 'Internal']
    )
    assert.isTrue(registry.category('internal')!.hidden)
    assert.isFalse(registry.find('internal.setupFinished')!.allowEdit)
    assert.lengthOf(coreConfigCategories, 7)
  })

  test('email templates have friendly defaults that use their placeholders', ({ assert }) => {
    const registry = new ConfigRegistry()
    registerCoreConfigCategories(registry)
    const text = (key: string) => registry.find(key)!.defaultValue
    for (const placeholder of ['{creator}', '{shareUrl}', '{desc}', '{expires}']) {
      assert.include(text('email.shareRecipientsMessage'), placeholder)
    }
    assert.include(text('email.reverseShareMessage'), '{shareUrl}')
    assert.include(text('email.resetPasswordMessage'), '{url}')
    for (const placeholder of ['{url}', '{password}', '{email}']) {
      assert.include(text('email.inviteMessage'), placeholder)
    }
    assert.include(text('email.resetPasswordSubject'), '{appName}')
    assert.equal(registry.find('email.shareRecipientsMessage')!.type, 'text')
  })

  test('validate the Microsoft tenant', ({ assert }) => {
    for (const ok of [
      'common',
      'organizations',
      'consumers',
      'contoso.onmicrosoft.com',
      '72f988bf-86f1-41af-91ab-2d7cd011db47',
    ]) {
      assert.isUndefined(validateMicrosoftTenant(ok), ok)
    }
    for (const bad of ['everyone', 'not a domain', '72f988bf-86f1', 'http://x.com']) {
      assert.isString(validateMicrosoftTenant(bad), bad)
    }
  })
})

test.group('Config values | checks', () => {
  test('check the JSON type first, then the rules', ({ assert }) => {
    const level = {
      key: 'share.zipCompressionLevel',
      type: 'number' as const,
      validation: { min: 0, max: 9 },
    }
    assert.deepEqual(checkValue(level, 5), { ok: true, value: 5, stored: '5' })
    assert.deepInclude(checkValue(level, '5'), {
      ok: false,
      reason: 'type',
      message: 'Config variable must be of type number',
    })
    assert.deepInclude(checkValue(level, 10), { ok: false, reason: 'invalid' })
    assert.deepInclude(checkValue(level, 2.5), {
      ok: false,
      message: 'Config variable share.zipCompressionLevel must be an integer',
    })
    const flag = { key: 'a.b', type: 'boolean' as const }
    assert.deepEqual(checkValue(flag, false), { ok: true, value: false, stored: 'false' })
    assert.deepInclude(checkValue(flag, 'true'), {
      reason: 'type',
      message: 'Config variable must be of type boolean',
    })
    const span = { key: 'a.c', type: 'timespan' as const }
    assert.deepEqual(checkValue(span, '1 week'), { ok: true, value: '1 week', stored: '1 weeks' })
    assert.deepInclude(checkValue(span, 'soon'), { ok: false, reason: 'invalid' })
    const size = { key: 'a.d', type: 'filesize' as const }
    assert.deepInclude(checkValue(size, -5), {
      ok: false,
      message: 'Config variable a.d must be a whole number of bytes',
    })
  })
})
