import { test } from '@japa/runner'
import logger from '@adonisjs/core/services/logger'
import { DateTime } from 'luxon'
import Share from '#models/share'
import app from '@adonisjs/core/services/app'
import MailService from '#services/mail/mail_service'
import { expiresText } from '#services/mail/share_mails'
import { renderTemplate } from '#services/mail/render_template'
import { startSmtpServer, type TestSmtpServer, mailTo } from '#tests/helpers/smtp_server'
import {
  api,
  createAndComplete,
  cleanupShareTests,
  newShareId,
  setConfig,
  shareUser,
  setSmtpConfig,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'

const mailService = await app.container.make(MailService)

const APP_URL = 'https://tern.example.com'

/** Points smtp.* at the test server and turns sharing by mail on (all reset by cleanupShareTests). */
async function useSmtp(smtp: TestSmtpServer, shareRecipients = true) {
  await setSmtpConfig(smtp.port)
  await setConfig('general.appUrl', `${APP_URL}/`)
  await setConfig('email.enableShareEmailRecipients', shareRecipients ? 'true' : 'false')
}

test.group('Reverse shares | mails', (group) => {
  let smtp: TestSmtpServer

  group.setup(async () => {
    smtp = await startSmtpServer()
    return () => smtp.close()
  })
  group.each.setup(() => smtp.clear())
  group.each.teardown(async () => {
    await mailService.idle()
    await cleanupShareTests()
  })

  test('on completion each recipient gets the recipients mail with every placeholder filled', async ({
    assert,
  }) => {
    await useSmtp(smtp)
    await setConfig('email.shareRecipientsSubject', '{creator} shared files on {appName}')
    await setConfig(
      'email.shareRecipientsMessage',
      'creator={creator}\nurl={shareUrl}\ndesc={desc}\nexpires={expires}'
    )
    const { cookie, user } = await shareUser()
    const { id, completed } = await createAndComplete(cookie, {
      recipients: ['one@example.com', 'two@example.com'],
      description: 'Holiday photos',
      expiration: '7-days',
    })
    assert.equal(completed.status, 202)
    assert.sameMembers(Object.keys(completed.json), ['id', 'name', 'expiration', 'description'])
    await mailService.idle()

    const expiration = (await Share.findOrFail(id)).expiration!
    for (const address of ['one@example.com', 'two@example.com']) {
      const mail = await smtp.waitForMessage((m) => mailTo(m) === address)
      assert.equal(mail.subject, `${user.username} shared files on Tern`)
      const lines = (mail.text ?? '').trim().split('\n')
      assert.equal(lines[0], `creator=${user.username}`)
      assert.equal(lines[1], `url=${APP_URL}/s/${id}`)
      assert.equal(lines[2], 'desc=Holiday photos')
      // Rounded: a few moments have passed since the share was made, yet it is not "in 6 days".
      assert.match(lines[3], /^expires=in 7 days \(\d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC\)$/)
      assert.include(lines[3], expiration.toUTC().toFormat("d LLLL yyyy, HH:mm 'UTC'"))
    }
    assert.lengthOf(smtp.messages, 2, 'one mail per recipient')
  })

  test('an anonymous share without description that never expires: "Someone", no description line, "never"', async ({
    assert,
  }) => {
    await useSmtp(smtp)
    await setConfig('share.allowUnauthenticatedShares', 'true')
    const { completed } = await createAndComplete(null, {
      recipients: ['visitor-friend@example.com'],
    })
    assert.equal(completed.status, 202)
    await mailService.idle()
    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Files shared with you')
    assert.include(mail.text!, 'Someone shared some files with you')
    assert.include(mail.text!, `${APP_URL}/s/${completed.json.id}`)
    assert.notInclude(mail.text!, 'Description')
    assert.notInclude(mail.text!, '\n\n\n', 'the left-out line takes one blank line along')
    assert.include(mail.text!, 'The share expires never.')
  })

  test('recipients while sharing by mail is off: 400 before anything is stored', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const cases: [string, () => Promise<void>][] = [
      ['defaults (sharing by mail and SMTP off)', async () => {}],
      ['sharing by mail off, SMTP on', () => useSmtp(smtp, false)],
      [
        'sharing by mail on, SMTP off',
        async () => {
          await useSmtp(smtp, true)
          await setConfig('smtp.enabled', 'false')
        },
      ],
    ]
    for (const [label, configure] of cases) {
      await configure()
      const id = newShareId()
      const response = await api('POST', '/api/shares', {
        cookie,
        json: { id, expiration: 'never', recipients: ['someone@example.com'] },
      })
      assert.equal(response.status, 400, label)
      assert.deepEqual(response.json, {
        statusCode: 400,
        message: 'Sharing files by email is disabled, so a share cannot have email recipients',
        error: 'Bad Request',
      })
      assert.isNull(await Share.find(id), label)
      const without = await api('POST', '/api/shares', {
        cookie,
        json: { id, expiration: 'never', recipients: [] },
      })
      assert.equal(without.status, 201, label)
      await api('DELETE', `/api/shares/${id}`, { cookie })
    }
  })

  test('the reverse share creator gets the reverse-share mail when sendEmailNotification is on', async ({
    assert,
  }) => {
    await useSmtp(smtp, false)
    await setConfig('email.reverseShareMessage', 'See {shareUrl} on {appName}')
    const owner = await shareUser({ email: 'rs-owner@example.com' })
    const notifying = await createReverseShare(owner.cookie, { sendEmailNotification: true })
    const quiet = await createReverseShare(owner.cookie, { sendEmailNotification: false })

    const upload = await completedReverseShareUpload(notifying.token, { 'a.txt': 'a' })
    assert.isTrue(upload.completed.json.notifyReverseShareCreator)
    const silent = await completedReverseShareUpload(quiet.token, { 'b.txt': 'b' })
    assert.isFalse(silent.completed.json.notifyReverseShareCreator)
    await mailService.idle()

    const mail = await smtp.waitForMessage((m) => mailTo(m) === 'rs-owner@example.com')
    assert.equal(mail.subject, 'Reverse share link used')
    assert.equal((mail.text ?? '').trim(), `See ${APP_URL}/s/${upload.shareId} on Tern`)
    assert.lengthOf(smtp.messages, 1, 'no mail for the reverse share without notification')
  })

  test('with SMTP off the reverse share creator is not notified (notifyReverseShareCreator false)', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { sendEmailNotification: true })
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'a' })
    assert.isFalse(upload.completed.json.notifyReverseShareCreator)
    await mailService.idle()
    assert.lengthOf(smtp.messages, 0)
  })

  test('a failed delivery is logged with the reason and never fails the completion', async ({
    assert,
  }) => {
    const refusing = await startSmtpServer({
      reject: { at: 'rcpt', code: 550, message: 'Mailbox unavailable' },
    })
    const logged: { bindings: Record<string, unknown>; message: string }[] = []
    const original = logger.error
    logger.error = ((bindings: Record<string, unknown>, message: string, ...values: unknown[]) => {
      logged.push({ bindings, message: message.replace('%s', String(values[0])) })
    }) as typeof logger.error
    try {
      await useSmtp(refusing)
      const owner = await shareUser()
      const { token } = await createReverseShare(owner.cookie, { sendEmailNotification: true })
      const upload = await completedReverseShareUpload(
        token,
        { 'a.txt': 'a' },
        {
          body: { recipients: ['bounce@example.com'] },
        }
      )
      assert.equal(upload.completed.status, 202)
      assert.isTrue(upload.completed.json.notifyReverseShareCreator)
      await mailService.idle()
      assert.lengthOf(logged, 2)
      for (const entry of logged) {
        assert.equal(entry.bindings.shareId, upload.shareId)
        assert.include(String(entry.bindings.reason), 'Mailbox unavailable')
        assert.include(entry.message, 'Sending mail in the background failed')
      }
      assert.sameMembers(
        logged.map((entry) => entry.bindings.mail),
        ['share:recipient', 'reverse_share:used']
      )
    } finally {
      logger.error = original
      await refusing.close()
    }
  })
})

test.group('Reverse shares | {expires}', () => {
  test('is relative with the UTC date, or "never"', ({ assert }) => {
    const now = DateTime.fromISO('2025-01-01T12:00:00Z', { zone: 'utc' })
    assert.equal(expiresText(null, now), 'never')
    assert.equal(expiresText(now.plus({ days: 7 }), now), 'in 7 days (8 January 2025, 12:00 UTC)')
    assert.equal(expiresText(now.plus({ hours: 3 }), now), 'in 3 hours (1 January 2025, 15:00 UTC)')
  })

  test("rounds to the nearest whole unit, in the locale's words", ({ assert }) => {
    const now = DateTime.fromISO('2025-01-01T12:00:00Z', { zone: 'utc' })
    const relative = (duration: Record<string, number>, locale = 'en') =>
      expiresText(now.plus(duration), now, locale).replace(/ \(.*\)$/, '')
    // Mailed when the upload is done, a little after the share was created.
    assert.equal(relative({ days: 7, minutes: -3 }), 'in 7 days')
    assert.equal(relative({ days: 20 }), 'in 20 days')
    assert.equal(relative({ months: 1, minutes: -3 }), 'in 1 month')
    assert.equal(relative({ years: 1, hours: -1 }), 'in 1 year')
    assert.equal(relative({ hours: 1, minutes: -1 }), 'in 1 hour')
    assert.equal(relative({ minutes: 90 }), 'in 2 hours')
    assert.equal(relative({ seconds: 30 }), 'in 30 seconds')
    assert.equal(relative({ days: 7, minutes: -3 }, 'fr'), 'dans 7 jours')
    assert.equal(relative({ days: 7, minutes: -3 }, 'de'), 'in 7 Tagen')
  })
})

test.group('Mail templates | a placeholder without value', () => {
  test('leaves out its lines and one of the blank lines around them', ({ assert }) => {
    const template = 'Hello!\n\nFiles: {url}\n\nDescription: {desc}\n\nBye.'
    assert.equal(renderTemplate(template, { url: 'U', desc: null }), 'Hello!\n\nFiles: U\n\nBye.')
    assert.equal(
      renderTemplate(template, { url: 'U', desc: 'Photos' }),
      'Hello!\n\nFiles: U\n\nDescription: Photos\n\nBye.'
    )
    assert.equal(renderTemplate('{desc}\nrest', { desc: null }), 'rest')
    assert.equal(renderTemplate('a {desc} b\nc {other}', { desc: null }), 'c {other}')
  })
})
