import { test } from '@japa/runner'
import {
  NOTIFICATION_EVENTS,
  NotificationDeliveryError,
  NotificationManager,
  isUserRoutable,
  notificationEventUserId,
  type NotificationChannelContract,
} from '#extensions/notifications/main'
import { renderNotification, notificationLocale } from '#services/notifications/render_notification'
import { sampleMessage, samplePayload } from '#tests/contracts/notification_channel_contract'

test.group('Notifications | routable channels', () => {
  test('describe lists what a channel can be routed to; channels without deliver or targets are not routable', ({
    assert,
  }) => {
    const manager = new NotificationManager()
      .register('all', () => ({
        targets: { user: true, instance: false },
        deliver: async () => {},
      }))
      .register('some', () => ({
        events: ['user.invited', 'share.created'],
        targets: { user: false, instance: true },
        deliver: async () => {},
      }))
      .register('mail-only', () => ({ send: async () => {} }))
      .register('nowhere', () => ({
        targets: { user: false, instance: false },
        deliver: async () => {},
      }))
    assert.deepEqual(manager.describe('all'), {
      name: 'all',
      events: [...NOTIFICATION_EVENTS],
      targets: { user: true, instance: false },
    })
    // Catalogue order, whatever order the channel listed them in.
    assert.deepEqual(manager.describe('some')?.events, ['share.created', 'user.invited'])
    assert.isNull(manager.describe('mail-only'))
    assert.isNull(manager.describe('nowhere'))
    assert.deepEqual(
      manager.routable().map((channel) => channel.name),
      ['all', 'some']
    )
  })

  test('deliver through the facade keeps a NotificationDeliveryError and wraps anything else', async ({
    assert,
  }) => {
    const verdict = new NotificationDeliveryError('refused', { retryable: false })
    let fail: unknown = verdict
    const manager = new NotificationManager().register('flaky', () => ({
      targets: { user: true, instance: true },
      deliver: async () => {
        throw fail
      },
    }))
    const first = await manager
      .use('flaky')
      .deliver(sampleMessage('share.created'))
      .catch((error) => error)
    assert.strictEqual(first, verdict)
    fail = new Error('socket hang up')
    const second = await manager
      .use('flaky')
      .deliver(sampleMessage('share.created'))
      .catch((error) => error)
    assert.equal(second.code, 'E_NOTIFICATION_SEND_FAILED')
    assert.equal(second.cause.message, 'socket hang up')
    const sendOnly = new NotificationManager().register('x', () => ({
      targets: { user: true, instance: true },
    }))
    const missing = await sendOnly
      .use('x')
      .deliver(sampleMessage('share.created'))
      .catch((error) => error)
    assert.equal(missing.cause.code, 'E_NOTIFICATION_UNSUPPORTED')
  })

  test('the fake records routed messages too; unregister closes the built channel', async ({
    assert,
  }) => {
    let closed = 0
    const channel: NotificationChannelContract = {
      targets: { user: true, instance: true },
      deliver: async () => {},
      close: async () => void closed++,
    }
    const manager = new NotificationManager().register('probe', () => channel)
    const fake = manager.fake()
    const message = sampleMessage('share.expired')
    await manager.use('probe').deliver(message)
    assert.deepEqual(fake.delivered, [{ channel: 'probe', message }])
    manager.restore()
    manager.use('probe')
    assert.isTrue(await manager.unregister('probe'))
    assert.equal(closed, 1)
    assert.isFalse(manager.has('probe'))
    assert.isFalse(await manager.unregister('probe'))
  })
})

test.group('Notifications | catalogue and texts', () => {
  test('owner and subject events belong to a user; instance events to nobody', ({ assert }) => {
    assert.equal(
      notificationEventUserId('share.downloaded', { ...samplePayload('share.downloaded') }),
      'user-1'
    )
    const used = samplePayload('reverse_share.used')
    assert.equal(
      notificationEventUserId('reverse_share.used', {
        ...used,
        reverseShare: { ...used.reverseShare, creatorId: 'rs-owner' },
      }),
      'rs-owner'
    )
    assert.equal(
      notificationEventUserId('auth.new_device_sign_in', samplePayload('auth.new_device_sign_in')),
      'user-1'
    )
    assert.isNull(notificationEventUserId('user.invited', samplePayload('user.invited')))
    assert.isFalse(isUserRoutable('user.invited'))
    assert.isTrue(isUserRoutable('auth.password_reset_requested'))
  })

  test('every event has a subject and a text in English, German and French, with the payload in them', ({
    assert,
  }) => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR']) {
      for (const event of NOTIFICATION_EVENTS) {
        const rendered = renderNotification(event, samplePayload(event), locale)
        for (const part of [rendered.subject, rendered.text]) {
          assert.isAbove(part.length, 5, `${locale} ${event}`)
          assert.notInclude(part, 'notification_events.', `${locale} ${event}: missing message`)
          assert.notMatch(part, /\{[a-zA-Z]+\}/, `${locale} ${event}: unfilled argument`)
        }
      }
    }
    const downloaded = renderNotification(
      'share.downloaded',
      samplePayload('share.downloaded'),
      'fr-FR'
    )
    assert.equal(downloaded.subject, 'Quelqu’un a téléchargé « Holiday pictures »')
    assert.include(downloaded.text, '« beach.jpg » a été téléchargé')
    const completed = renderNotification(
      'share.completed',
      samplePayload('share.completed'),
      'de-DE'
    )
    assert.include(completed.text, '2 Dateien')
    assert.include(completed.text, '1. Januar 2030')
  })

  test('Japanese, once English only, has its own texts; an unknown language falls back to the default', ({
    assert,
  }) => {
    assert.equal(
      renderNotification('share.expired', samplePayload('share.expired'), 'ja-JP').subject,
      '共有「Holiday pictures」の有効期限が切れました'
    )
    assert.equal(notificationLocale('xx-YY'), 'en-US')
    assert.equal(notificationLocale('de-DE'), 'de-DE')
  })
})
