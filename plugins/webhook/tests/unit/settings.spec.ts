import { test } from '@japa/runner'
import { configRegistry } from '#extensions/config/registry'
import { checkValue } from '#extensions/config/values'
import {
  eventAllowed,
  LIFECYCLE_EVENTS,
  parseEventFilter,
  webhookEventName,
} from '../../src/events.js'
import {
  checkWebhookUrl,
  parseUrlList,
  WEBHOOK_CONFIG_KEYS,
  webhookConfigCategory,
  webhookSettingsFrom,
} from '../../src/settings.js'

function variable(key: string) {
  return webhookConfigCategory.variables.find((item) => item.key === key)!
}

test.group('Webhook plugin | settings', () => {
  test('the category declares every key with the documented defaults', ({ assert }) => {
    assert.deepEqual(
      webhookConfigCategory.variables.map((item) => [item.key, item.type, item.defaultValue]),
      [
        ['webhook.enabled', 'boolean', 'false'],
        ['webhook.urls', 'text', ''],
        ['webhook.secret', 'string', ''],
        ['webhook.events', 'string', ''],
        ['webhook.timeout', 'number', '10'],
        ['webhook.maxAttempts', 'number', '5'],
      ]
    )
    assert.deepEqual(
      webhookConfigCategory.variables.map((item) => item.key),
      [...WEBHOOK_CONFIG_KEYS]
    )
    assert.isTrue(variable('webhook.secret').obscured)
    assert.isFalse(webhookConfigCategory.variables.some((item) => item.public))
  })

  test('the enabled plugin registered the category with its id as source', ({ assert }) => {
    const registered = configRegistry.category('webhook')
    assert.exists(registered, 'the test runner enables the webhook plugin')
    assert.equal(registered!.source, 'webhook')
  })

  test('URL lists are the trimmed non-empty lines', ({ assert }) => {
    assert.deepEqual(parseUrlList(' https://a.test/x \r\n\n  http://b.test\n   \n'), [
      'https://a.test/x',
      'http://b.test',
    ])
    assert.deepEqual(parseUrlList(''), [])
  })

  test('only http and https URLs with a host and no credentials are usable', ({ assert }) => {
    assert.isNull(checkWebhookUrl('https://hooks.example.com/tern?x=1'))
    assert.isNull(checkWebhookUrl('http://127.0.0.1:8080/hook'))
    assert.equal(
      checkWebhookUrl('ftp://example.com/x'),
      'only http:// and https:// URLs are allowed'
    )
    assert.equal(
      checkWebhookUrl('file:///etc/passwd'),
      'only http:// and https:// URLs are allowed'
    )
    assert.equal(checkWebhookUrl('example.com/hook'), 'not a valid URL')
    assert.equal(
      checkWebhookUrl('https://user:pw@example.com/'),
      'credentials in the URL are not allowed'
    )
  })

  test('an admin change with a bad URL is refused with the line named', ({ assert }) => {
    const urls = {
      key: 'webhook.urls',
      type: 'text' as const,
      validation: variable('webhook.urls').validation,
    }
    assert.isTrue(checkValue(urls, 'https://a.test\nhttp://b.test').ok)
    const refused = checkValue(urls, 'https://a.test\nftp://b.test')
    assert.isFalse(refused.ok)
    assert.equal(
      !refused.ok && refused.message,
      'Webhook URL on line 2 is refused (only http:// and https:// URLs are allowed): ftp://b.test'
    )
  })

  test('the event filter accepts both spellings and refuses unknown catalogue events', ({
    assert,
  }) => {
    const events = {
      key: 'webhook.events',
      type: 'string' as const,
      validation: variable('webhook.events').validation,
    }
    assert.isTrue(checkValue(events, 'share.created, share:completed reverse_share.used').ok)
    assert.isTrue(checkValue(events, 'auth.new_device_sign_in user.invited share.expiring').ok)
    assert.isTrue(checkValue(events, '').ok)
    assert.isTrue(
      checkValue(events, 'custom.thing').ok,
      'names outside the catalogue domains are kept for notifications the core sends'
    )
    assert.isFalse(checkValue(events, 'auth.password_reset').ok)
    const typo = checkValue(events, 'share.complete')
    assert.isFalse(typo.ok)
    assert.match(
      !typo.ok ? typo.message : '',
      /^Unknown webhook event "share.complete"\. Known events: share\.created, /
    )
    assert.isFalse(checkValue(events, 'nonsense').ok)
  })

  test('timeout and maxAttempts are bounded', ({ assert }) => {
    const number = (key: string) => ({
      key,
      type: 'number' as const,
      validation: variable(key).validation,
    })
    assert.isTrue(checkValue(number('webhook.timeout'), 1).ok)
    assert.isFalse(checkValue(number('webhook.timeout'), 0).ok)
    assert.isFalse(checkValue(number('webhook.timeout'), 121).ok)
    assert.isTrue(checkValue(number('webhook.maxAttempts'), 10).ok)
    assert.isFalse(checkValue(number('webhook.maxAttempts'), 0).ok)
    assert.isFalse(checkValue(number('webhook.maxAttempts'), 11).ok)
  })

  test('settings are built from the typed values', ({ assert }) => {
    assert.deepEqual(
      webhookSettingsFrom({
        'webhook.enabled': true,
        'webhook.urls': 'https://a.test\n\nhttp://b.test ',
        'webhook.secret': ' s ',
        'webhook.events': 'share:created,share.deleted',
        'webhook.timeout': 3,
        'webhook.maxAttempts': 4,
      }),
      {
        enabled: true,
        urls: ['https://a.test', 'http://b.test'],
        secret: ' s ',
        events: ['share.created', 'share.deleted'],
        timeoutMs: 3000,
        maxAttempts: 4,
      }
    )
  })
})

test.group('Webhook plugin | event names', () => {
  test('hook names become dotted webhook names', ({ assert }) => {
    assert.equal(webhookEventName('share:completed'), 'share.completed')
    assert.equal(webhookEventName('reverse_share:used'), 'reverse_share.used')
    assert.equal(webhookEventName('share.created'), 'share.created')
    assert.deepEqual(LIFECYCLE_EVENTS, [
      'share.created',
      'share.completed',
      'share.downloaded',
      'share.expired',
      'share.deleted',
      'reverse_share.used',
    ])
  })

  test('an empty filter lets everything through, otherwise only the listed events', ({
    assert,
  }) => {
    assert.isTrue(eventAllowed([], 'share.created'))
    const filter = parseEventFilter('share:completed,, share.deleted share.deleted')
    assert.deepEqual(filter, ['share.completed', 'share.deleted'])
    assert.isTrue(eventAllowed(filter, 'share:completed'))
    assert.isTrue(eventAllowed(filter, 'share.deleted'))
    assert.isFalse(eventAllowed(filter, 'share.created'))
  })
})
