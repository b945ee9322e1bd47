/**
 * The mapping table of Pingvin's configuration keys and the value
 * conversions, without a database: every Pingvin 1.x key has a rule, every
 * key carried over names a Tern variable that exists (core or the plugin the
 * rule names), and Pingvin's text values become Tern's types.
 */
import { test } from '@japa/runner'
import { ConfigRegistry } from '#extensions/config/registry'
import { registerCoreConfigCategories } from '#services/config/definitions'
import {
  PINGVIN_CONFIG_RULES,
  pingvinValueFor,
  templateWarning,
} from '#services/pingvin_import/config_mapping'
import { manifest as github } from '#plugins/github/manifest'
import { manifest as google } from '#plugins/google/manifest'
import { manifest as microsoft } from '#plugins/microsoft/manifest'
import { manifest as discord } from '#plugins/discord/manifest'
import { manifest as oidc } from '#plugins/oidc/manifest'
import { manifest as s3Storage } from '#plugins/s3-storage/manifest'
import { manifest as ldap } from '#plugins/ldap/manifest'
import { PINGVIN_CONFIG_KEY_NAMES } from '#tests/helpers/pingvin_config_keys'

/** The core categories plus the first-party plugins the rules name. */
function ternRegistry() {
  const registry = new ConfigRegistry()
  registerCoreConfigCategories(registry)
  for (const plugin of [github, google, microsoft, discord, oidc, s3Storage, ldap]) {
    for (const category of plugin.config ?? [])
      registry.defineCategory({ ...category, source: plugin.id })
  }
  return registry
}

test.group('Pingvin import | config mapping table', () => {
  test('every Pingvin 1.x key has a rule, and the table has no other key', ({ assert }) => {
    assert.lengthOf(PINGVIN_CONFIG_KEY_NAMES, 84)
    assert.sameMembers(Object.keys(PINGVIN_CONFIG_RULES), PINGVIN_CONFIG_KEY_NAMES)
  })

  test('a carried key names a Tern variable that exists, defined by the plugin the rule names', ({
    assert,
  }) => {
    const registry = ternRegistry()
    let checked = 0
    for (const [key, rule] of Object.entries(PINGVIN_CONFIG_RULES)) {
      if (rule.action !== 'carry') continue
      // Pingvin's names are kept throughout.
      assert.equal(rule.ternKey, key)
      // The legal.* variables are core; checked once the registry defines them.
      if (key.startsWith('legal.') && !registry.find(key)) continue
      const variable = registry.find(rule.ternKey)
      assert.exists(variable, key)
      assert.equal(variable!.source, rule.plugin ?? 'core', key)
      checked++
    }
    assert.isAtLeast(checked, 69)
  })

  test('settings without a Tern equivalent say why; the JWT key is dropped', ({ assert }) => {
    const notCarried = Object.entries(PINGVIN_CONFIG_RULES)
      .filter(([, rule]) => rule.action !== 'carry')
      .map(([key]) => key)
    assert.sameMembers(notCarried, [
      'internal.jwtSecret',
      'oauth.discord-limitedUsers',
      'oauth.oidc-rolePath',
      'oauth.oidc-roleGeneralAccess',
      'oauth.oidc-roleAdminAccess',
      's3.useChecksum',
      'cache.redis-enabled',
      'cache.redis-url',
      'cache.ttl',
      'cache.maxItems',
    ])
    assert.equal(PINGVIN_CONFIG_RULES['internal.jwtSecret'].action, 'dropped')
    const redis = PINGVIN_CONFIG_RULES['cache.redis-enabled']
    assert.equal(redis.action, 'no-equivalent')
    if (redis.action !== 'no-equivalent' || typeof redis.reason !== 'function')
      throw new Error('expected a reason function')
    assert.include(redis.reason('true'), 'set REDIS_URL')
    assert.include(redis.reason('false'), 'nothing to do')
  })
})

test.group('Pingvin import | config values', () => {
  test('booleans are "true" or "false", anything else is refused', ({ assert }) => {
    assert.deepEqual(pingvinValueFor({ type: 'boolean' }, 'true'), { ok: true, value: true })
    assert.deepEqual(pingvinValueFor({ type: 'boolean' }, 'false'), { ok: true, value: false })
    assert.deepEqual(pingvinValueFor({ type: 'boolean' }, 'yes'), {
      ok: false,
      message: 'Pingvin value is not a boolean (true or false)',
    })
  })

  test('numbers are decimal; sizes are bytes or a size with a unit', ({ assert }) => {
    assert.deepEqual(pingvinValueFor({ type: 'number' }, ' 587 '), { ok: true, value: 587 })
    assert.deepEqual(pingvinValueFor({ type: 'number' }, '1.5'), { ok: true, value: 1.5 })
    assert.isFalse(pingvinValueFor({ type: 'number' }, '12px').ok)
    assert.isFalse(pingvinValueFor({ type: 'number' }, '').ok)
    assert.deepEqual(pingvinValueFor({ type: 'filesize' }, '1000000000'), {
      ok: true,
      value: 1_000_000_000,
    })
    assert.deepEqual(pingvinValueFor({ type: 'filesize' }, '10 MB'), {
      ok: true,
      value: 10_000_000,
    })
    assert.deepEqual(pingvinValueFor({ type: 'filesize' }, '1GiB'), { ok: true, value: 2 ** 30 })
    assert.deepEqual(pingvinValueFor({ type: 'filesize' }, '1.5 kb'), { ok: true, value: 1500 })
    assert.deepEqual(pingvinValueFor({ type: 'filesize' }, 'lots'), {
      ok: false,
      message: 'Pingvin value is not a size in bytes',
    })
    assert.isFalse(pingvinValueFor({ type: 'filesize' }, '10 parsecs').ok)
  })

  test('timespans are kept; a bare number is hours, as older Pingvin versions stored them', ({
    assert,
  }) => {
    assert.deepEqual(pingvinValueFor({ type: 'timespan' }, '3 months'), {
      ok: true,
      value: '3 months',
    })
    assert.deepEqual(pingvinValueFor({ type: 'timespan' }, '720 hours'), {
      ok: true,
      value: '720 hours',
    })
    assert.deepEqual(pingvinValueFor({ type: 'timespan' }, '720'), { ok: true, value: '720 hours' })
  })

  test('text is unchanged, spaces and line breaks included', ({ assert }) => {
    assert.deepEqual(pingvinValueFor({ type: 'text' }, ' Hey!\n\n{url} '), {
      ok: true,
      value: ' Hey!\n\n{url} ',
    })
    assert.deepEqual(pingvinValueFor({ type: 'string' }, 's3cr3t '), { ok: true, value: 's3cr3t ' })
  })

  test("a mail template with Pingvin's {creatorEmail} is flagged; Pingvin's other defaults are not", ({
    assert,
  }) => {
    const recipients =
      'Hey!\n\n{creator} ({creatorEmail}) shared some files with you, view or download the files with this link: {shareUrl}\n\nThe share will expire {expires}.\n\nNote: {desc}\n\nShared securely with Pingvin Share'
    const warning = templateWarning('email.shareRecipientsMessage', recipients)
    assert.match(warning!, /^uses \{creatorEmail\}, which Tern does not fill: it stays as written/)
    assert.notInclude(warning!.split(':')[0], '{creator}')
    assert.isUndefined(
      templateWarning(
        'email.reverseShareMessage',
        'Hey!\n\nA share was just created with your reverse share link: {shareUrl}'
      )
    )
    assert.isUndefined(
      templateWarning('email.resetPasswordMessage', 'Click this link to reset your password: {url}')
    )
    assert.isUndefined(
      templateWarning(
        'email.inviteMessage',
        'Accept the invite: {url}. Use the email "{email}" and the password "{password}"'
      )
    )
    assert.isUndefined(templateWarning('email.inviteSubject', '{appName} invite'))
    assert.include(
      templateWarning('email.inviteSubject', '{inviter} and {x} invite you')!,
      'uses {inviter}, {x}, which Tern does not fill: they stay'
    )
    assert.isUndefined(templateWarning('general.appName', '{creatorEmail}'))
  })
})
