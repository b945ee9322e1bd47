import { test } from '@japa/runner'
import {
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  retryPolicyFromEnv,
} from '../../src/backoff.js'
import { serializeWebhookBody, webhookHeaders } from '../../src/delivery.js'
import { signWebhook, signedMaterial, verifyWebhookSignature } from '../../src/signature.js'

test.group('Webhook plugin | signature', () => {
  test('signs "<timestamp>.<raw body>" with HMAC-SHA256 as sha256=<hex>', ({ assert }) => {
    assert.equal(signedMaterial(1700000000, '{"a":1}'), '1700000000.{"a":1}')
    // Known answer computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac topsecret
    assert.equal(
      signWebhook('topsecret', 1700000000, '{"a":1}'),
      'sha256=6a939b0c71853d606167625a15168ee9188c6a511c773ef4f42d307f3849e50f'
    )
  })

  test('verification accepts the genuine signature and refuses any change', ({ assert }) => {
    const now = 1700000000
    const body = '{"event":"share.created"}'
    const signature = signWebhook('s3cret', now, body)
    assert.isTrue(verifyWebhookSignature('s3cret', String(now), body, signature, { now }))
    assert.isFalse(verifyWebhookSignature('other', String(now), body, signature, { now }))
    assert.isFalse(verifyWebhookSignature('s3cret', String(now), `${body} `, signature, { now }))
    assert.isFalse(verifyWebhookSignature('s3cret', String(now + 1), body, signature, { now }))
    assert.isFalse(
      verifyWebhookSignature('s3cret', String(now), body, signature.slice(0, -1), { now })
    )
    assert.isFalse(verifyWebhookSignature('s3cret', 'abc', body, signature, { now }))
  })

  test('verification refuses a timestamp outside the tolerance unless it is 0', ({ assert }) => {
    const body = '{}'
    const signature = signWebhook('k', 1000, body)
    assert.isTrue(verifyWebhookSignature('k', '1000', body, signature, { now: 1300 }))
    assert.isFalse(verifyWebhookSignature('k', '1000', body, signature, { now: 1301 }))
    assert.isFalse(verifyWebhookSignature('k', '1000', body, signature, { now: 1000 - 301 }))
    assert.isTrue(
      verifyWebhookSignature('k', '1000', body, signature, { now: 99999, toleranceSeconds: 0 })
    )
  })

  test('headers carry the event, delivery, timestamp, attempt and a signature of the body', ({
    assert,
  }) => {
    const body = serializeWebhookBody({
      event: 'share.completed',
      id: 'd-1',
      occurredAt: '2025-01-01T00:00:00.000Z',
      data: { shareId: 'x' },
    })
    assert.deepEqual(JSON.parse(body), {
      event: 'share.completed',
      id: 'd-1',
      occurredAt: '2025-01-01T00:00:00.000Z',
      data: { shareId: 'x' },
    })
    const headers = webhookHeaders({
      event: 'share.completed',
      deliveryId: 'd-1',
      body,
      secret: 'k',
      userAgent: 'Tern-Webhook/1.0.0',
      attempt: 2,
      timestamp: 1234,
    })
    assert.deepEqual(headers, {
      'Content-Type': 'application/json',
      'User-Agent': 'Tern-Webhook/1.0.0',
      'X-Tern-Event': 'share.completed',
      'X-Tern-Delivery': 'd-1',
      'X-Tern-Timestamp': '1234',
      'X-Tern-Attempt': '2',
      'X-Tern-Signature': signWebhook('k', 1234, body),
    })
  })

  test('without a secret no signature header is sent', ({ assert }) => {
    const headers = webhookHeaders({
      event: 'e.x',
      deliveryId: 'd',
      body: '{}',
      secret: '',
      userAgent: 'UA',
      attempt: 1,
    })
    assert.notProperty(headers, 'X-Tern-Signature')
    assert.match(headers['X-Tern-Timestamp'], /^\d+$/)
  })
})

test.group('Webhook plugin | back-off', () => {
  test('doubles the wait after each failure from the base, capped', ({ assert }) => {
    const policy = { baseDelayMs: 1000, maxDelayMs: 10_000 }
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(attempt, policy)),
      [1000, 2000, 4000, 8000, 10_000, 10_000]
    )
    assert.deepEqual(DEFAULT_RETRY_POLICY, { baseDelayMs: 1000, maxDelayMs: 60_000 })
  })

  test('waits at least the Retry-After the receiver asked for, still capped', ({ assert }) => {
    const policy = { baseDelayMs: 100, maxDelayMs: 5000 }
    assert.equal(retryDelay(1, policy, 3000), 3000)
    assert.equal(retryDelay(1, policy, 50), 100)
    assert.equal(retryDelay(1, policy, 60_000), 5000)
    assert.equal(retryDelay(1, policy, null), 100)
  })

  test('retries 429 and 5xx only', ({ assert }) => {
    for (const status of [429, 500, 502, 503, 504, 599])
      assert.isTrue(isRetryableStatus(status), String(status))
    for (const status of [200, 301, 400, 401, 403, 404, 408, 410, 422, 600]) {
      assert.isFalse(isRetryableStatus(status), String(status))
    }
  })

  test('reads Retry-After as seconds or an HTTP date', ({ assert }) => {
    const now = Date.parse('2025-01-01T00:00:00Z')
    assert.equal(parseRetryAfter('7'), 7000)
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000)
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now), 0)
    assert.isNull(parseRetryAfter(null))
    assert.isNull(parseRetryAfter('soon'))
  })

  test('reads the policy from the environment, falling back on the defaults', ({ assert }) => {
    const env = (values: Record<string, string>) => (name: string) => values[name]
    assert.deepEqual(retryPolicyFromEnv(env({})), DEFAULT_RETRY_POLICY)
    assert.deepEqual(retryPolicyFromEnv(env({ WEBHOOK_RETRY_BASE_DELAY_MS: '25' })), {
      baseDelayMs: 25,
      maxDelayMs: 60_000,
    })
    assert.deepEqual(
      retryPolicyFromEnv(
        env({ WEBHOOK_RETRY_BASE_DELAY_MS: '500', WEBHOOK_RETRY_MAX_DELAY_MS: '100' })
      ),
      { baseDelayMs: 500, maxDelayMs: 500 }
    )
    assert.deepEqual(
      retryPolicyFromEnv(
        env({ WEBHOOK_RETRY_BASE_DELAY_MS: 'fast', WEBHOOK_RETRY_MAX_DELAY_MS: '-1' })
      ),
      DEFAULT_RETRY_POLICY
    )
  })
})
