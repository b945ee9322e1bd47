/**
 * The e-mail channel runs the notification-channel contract against the
 * real SMTP test server: user routes to the recipient's address, instance
 * routes to the configured list; a server refusing every recipient (550)
 * is the failing receiver. Idempotency: every attempt of one event carries
 * the same Message-ID.
 */
import { test } from '@japa/runner'
import emitter from '@adonisjs/core/services/emitter'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type { MailEvents } from '@adonisjs/mail/types'
import { startSmtpServer } from '#tests/helpers/smtp_server'
import {
  notificationChannelContract,
  sampleMessage,
} from '#tests/contracts/notification_channel_contract'
import { EmailChannel } from '../../src/email_channel.js'
import { parseRecipientList, type EmailSettings } from '../../src/settings.js'

const mailEmitter = emitter as unknown as EmitterLike<MailEvents>

function settings(port: number): EmailSettings {
  return {
    enabled: true,
    host: '127.0.0.1',
    port,
    from: 'noreply@tern.test',
    fromName: 'Tern',
    username: '',
    password: '',
    allowUnauthorizedCertificates: false,
  }
}

notificationChannelContract('email', async () => {
  const smtp = await startSmtpServer()
  const refusing = await startSmtpServer({ reject: { at: 'rcpt', code: 550 } })
  return {
    channel: () =>
      new EmailChannel({
        settings: async () => settings(smtp.port),
        emitter: mailEmitter,
        recipients: async () => ['ops@tern.test'],
      }),
    failingChannel: () =>
      new EmailChannel({
        settings: async () => settings(refusing.port),
        emitter: mailEmitter,
        recipients: async () => ['ops@tern.test'],
      }),
    received: async () =>
      smtp.messages.map((mail) => ({
        key: mail.messageId ?? null,
        text: `${mail.subject}\n${mail.text}`,
      })),
    idempotency: 'key',
    close: async () => {
      await smtp.close()
      await refusing.close()
    },
  }
})

test.group('Email plugin | routed events', (group) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  group.setup(async () => {
    smtp = await startSmtpServer()
    return () => smtp.close()
  })
  group.each.setup(() => smtp.clear())

  test('a user route goes to the recipient only; an instance route to the configured list', async ({
    assert,
  }) => {
    const channel = new EmailChannel({
      settings: async () => settings(smtp.port),
      emitter: mailEmitter,
      recipients: async () => parseRecipientList('ops@tern.test;\n audit@tern.test'),
    })
    const personal = sampleMessage('share.downloaded', {
      userId: 'u1',
      email: 'ada@tern.test',
      locale: 'de-DE',
    })
    await channel.deliver(personal)
    const mail = await smtp.waitForMessage((m) => m.subject === personal.rendered.subject)
    assert.deepEqual(
      (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) =>
        to!.value.map((a) => a.address)
      ),
      ['ada@tern.test']
    )
    assert.equal(mail.text?.trim(), personal.rendered.text)
    assert.equal(mail.headers.get('x-tern-event'), 'share.downloaded')

    const instance = sampleMessage('user.invited')
    await channel.deliver(instance)
    const broadcast = await smtp.waitForMessage((m) => m.subject === instance.rendered.subject)
    const addresses = (Array.isArray(broadcast.to) ? broadcast.to : [broadcast.to]).flatMap((to) =>
      to!.value.map((a) => a.address)
    )
    assert.sameMembers(addresses, ['ops@tern.test', 'audit@tern.test'])
  })

  test('an instance route without addresses, or SMTP off, fails for good (not retried)', async ({
    assert,
  }) => {
    const empty = new EmailChannel({
      settings: async () => settings(smtp.port),
      emitter: mailEmitter,
      recipients: async () => [],
    })
    await assert.rejects(
      () => empty.deliver(sampleMessage('user.invited')),
      /emailNotifications\.recipients is empty/
    )
    try {
      await empty.deliver(sampleMessage('user.invited'))
    } catch (error) {
      assert.equal((error as { code: string }).code, 'E_NOTIFICATION_DELIVERY_FAILED')
      assert.isFalse((error as { retryable: boolean }).retryable)
    }
    const off = new EmailChannel({
      settings: async () => ({ ...settings(smtp.port), enabled: false }),
      emitter: mailEmitter,
    })
    const rejection = await off
      .deliver(
        sampleMessage('share.created', { userId: 'u1', email: 'ada@tern.test', locale: 'en-US' })
      )
      .catch((e) => e)
    assert.equal(rejection.code, 'E_NOTIFICATION_DELIVERY_FAILED')
    assert.isFalse(rejection.retryable)
    assert.lengthOf(smtp.messages, 0)
  })

  test('a server that cannot be reached is retried (retryable error)', async ({ assert }) => {
    const closed = await startSmtpServer()
    const port = closed.port
    await closed.close()
    const channel = new EmailChannel({ settings: async () => settings(port), emitter: mailEmitter })
    const error = await channel
      .deliver(
        sampleMessage('share.created', { userId: 'u1', email: 'ada@tern.test', locale: 'en-US' })
      )
      .catch((e) => e)
    assert.equal(error.code, 'E_NOTIFICATION_DELIVERY_FAILED')
    assert.isTrue(error.retryable)
  })
})
