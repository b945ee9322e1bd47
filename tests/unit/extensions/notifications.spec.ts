import { test } from '@japa/runner'
import { NotificationManager, type Notification } from '#extensions/notifications/main'
import { assertRejectsWithCode } from '#tests/contracts/storage_driver_contract'

const message: Notification = {
  type: 'share:created',
  to: ['a@example.com'],
  subject: 'Hi',
  text: 'Body',
}

/** Records sends and closes. */
class RecordingChannel {
  sent: Notification[] = []
  closes = 0
  async send(notification: Notification) {
    if (notification.type === 'fail') throw new Error('smtp down')
    this.sent.push(notification)
  }
  async close() {
    this.closes++
  }
}

test.group('Notifications | manager', () => {
  test('sends through the named channel, built once', async ({ assert }) => {
    const manager = new NotificationManager()
    const channel = new RecordingChannel()
    let builds = 0
    manager.register('mail', () => {
      builds++
      return channel
    })
    await manager.use('mail').send(message)
    await manager.send('mail', message)
    assert.equal(builds, 1)
    assert.lengthOf(channel.sent, 2)
    assert.deepEqual(manager.names(), ['mail'])
  })

  test('wraps a delivery failure in E_NOTIFICATION_SEND_FAILED with the cause', async ({
    assert,
  }) => {
    const manager = new NotificationManager().register('mail', () => new RecordingChannel())
    await assertRejectsWithCode(
      assert,
      () => manager.send('mail', { ...message, type: 'fail' }),
      'E_NOTIFICATION_SEND_FAILED'
    )
    const error = await manager.send('mail', { ...message, type: 'fail' }).catch((e) => e)
    assert.equal((error.cause as Error).message, 'smtp down')
  })

  test('refuses unknown and duplicate channels', ({ assert }) => {
    const manager = new NotificationManager().register('mail', () => new RecordingChannel())
    assert.throws(() => manager.use('sms'), /not registered/)
    assert.throws(
      () => manager.register('mail', () => new RecordingChannel()),
      /already registered/
    )
  })

  test('fake records every send instead of delivering, until restore', async ({ assert }) => {
    const manager = new NotificationManager()
    const channel = new RecordingChannel()
    manager.register('mail', () => channel).register('chat', () => new RecordingChannel())
    const fake = manager.fake()
    await manager.send('mail', message)
    await manager.send('chat', { ...message, type: 'share:completed' })
    assert.lengthOf(channel.sent, 0)
    fake.assertSent(
      (sent) => sent.channel === 'chat' && sent.notification.type === 'share:completed'
    )
    assert.throws(() => fake.assertNothingSent())
    assert.lengthOf(
      fake.sends((sent) => sent.channel === 'mail'),
      1
    )
    manager.restore()
    await manager.send('mail', message)
    assert.lengthOf(channel.sent, 1)
  })

  test('closeAll closes the channels that were built', async ({ assert }) => {
    const manager = new NotificationManager()
    const built = new RecordingChannel()
    const unused = new RecordingChannel()
    manager.register('built', () => built).register('unused', () => unused)
    manager.use('built')
    await manager.closeAll()
    assert.equal(built.closes, 1)
    assert.equal(unused.closes, 0)
  })
})
