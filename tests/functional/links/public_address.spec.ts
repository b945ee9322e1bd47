/**
 * The public address (`general.appUrl`, #services/links/link_base) over real
 * HTTP, with a real SMTP server and a real OpenID provider: until an admin
 * confirms it, a reset link is mailed to no one, notifications carry the
 * share's path and social sign-in is refused; once confirmed (through
 * `PATCH /api/configs/admin`, as the first-sign-in step and Pingvin clients
 * do), the reset mail, the "share created" notification mail and the
 * redirect URI sent to the provider use it, whatever Host or
 * X-Forwarded-Host a request carries. Every request here is forged to come
 * from `evil.example` through the trusted (loopback) proxy. A Pingvin import
 * that carries an address confirms it.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import PasswordResetToken from '#models/password_reset_token'
import MailService from '#services/mail/mail_service'
import OutboxService from '#services/outbox/outbox_service'
import { pageObject } from '#tests/helpers/pages'
import { startSmtpServer, type TestSmtpServer, mailTo } from '#tests/helpers/smtp_server'
import { startOidcProvider, type TestOidcProvider } from '#tests/helpers/oidc_provider'
import {
  api,
  cleanupShareTests,
  newShareId,
  setConfig,
  shareUser,
  setSmtpConfig,
} from '#tests/helpers/shares'
import { clearDiscoveryCache } from '#plugins/oidc/index'
import { confirmedAppUrl } from '#services/links/link_base'
import { importPingvinConfig } from '#services/pingvin_import/config_mapping'

const mailService = await app.container.make(MailService)
const outbox = await app.container.make(OutboxService)

const CONFIRMED = 'https://tern.example.com'
const FORGED = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }

/** Confirms `address` as an admin does (the sign-in step and the admin panel send this PATCH). */
async function confirm(address: string) {
  const admin = await shareUser({ admin: true })
  const response = await api('PATCH', '/api/configs/admin', {
    cookie: admin.cookie,
    headers: FORGED,
    json: [{ key: 'general.appUrl', value: address }],
  })
  if (response.status !== 200) throw new Error(`confirm: ${response.status} ${response.bytes}`)
}

test.group('Public address | until confirmed, then confirmed', (group) => {
  let smtp: TestSmtpServer
  let idp: TestOidcProvider

  group.setup(async () => {
    smtp = await startSmtpServer()
    idp = await startOidcProvider({ redirectUris: [`${CONFIRMED}/api/oauth/callback/oidc`] })
    return async () => {
      clearDiscoveryCache()
      await idp.close()
      await smtp.close()
    }
  })
  group.each.setup(async () => {
    smtp.clear()
    // Unset: a fresh install's state (cleanupShareTests resets every key set here).
    await setConfig('general.appUrl', null)
    await setSmtpConfig(smtp.port)
  })
  group.each.teardown(async () => {
    await mailService.idle()
    await outbox.idle()
    await cleanupShareTests()
  })

  test('a reset link is mailed to no address until one is confirmed, then only to the confirmed one', async ({
    assert,
  }) => {
    await setConfig('email.resetPasswordMessage', 'link={url}')
    const { user } = await shareUser({ email: 'forgot@example.com' })

    const early = await api('POST', '/api/auth/resetPassword/forgot@example.com', {
      headers: FORGED,
    })
    assert.equal(early.status, 202)
    await mailService.idle()
    assert.lengthOf(smtp.messages, 0)
    assert.isNull(await PasswordResetToken.findBy('userId', user.id))

    await confirm(`${CONFIRMED}/`)
    const later = await api('POST', '/api/auth/resetPassword/forgot@example.com', {
      headers: FORGED,
    })
    assert.equal(later.status, 202)
    await mailService.idle()
    const mail = await smtp.waitForMessage((m) => mailTo(m) === 'forgot@example.com')
    assert.match(
      (mail.text ?? '').trim(),
      new RegExp(`^link=${CONFIRMED}/auth/resetPassword/[A-Za-z0-9_-]+$`)
    )
    assert.notInclude(mail.text ?? '', 'evil.example')
  })

  test('the "share created" notification mail links to the confirmed address, and to no host before', async ({
    assert,
  }) => {
    const owner = await shareUser({ email: 'owner@example.com' })
    const routed = await api('PUT', '/api/user/notifications', {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.created', channel: 'email' }] },
    })
    assert.equal(routed.status, 200)

    const createShare = async () => {
      const id = newShareId('created')
      const created = await api('POST', '/api/shares', {
        cookie: owner.cookie,
        headers: FORGED,
        json: { id, expiration: 'never' },
      })
      assert.equal(created.status, 201)
      await outbox.idle()
      const mail = await smtp.waitForMessage(
        (m) => mailTo(m) === 'owner@example.com' && (m.text ?? '').includes(id)
      )
      smtp.clear()
      return { id, text: mail.text ?? '' }
    }

    const early = await createShare()
    assert.include(early.text, `: /s/${early.id}\n`)
    assert.notInclude(early.text, 'localhost:3000')
    assert.notInclude(early.text, 'evil.example')

    await confirm(CONFIRMED)
    const later = await createShare()
    assert.include(later.text, `: ${CONFIRMED}/s/${later.id}\n`)
    assert.notInclude(later.text, 'evil.example')
  })

  test('social sign-in is refused until an address is confirmed; then the redirect URI sent is the confirmed one', async ({
    assert,
  }) => {
    await setConfig('oauth.oidc-enabled', 'true')
    await setConfig('oauth.oidc-discoveryUri', idp.discoveryUri)
    await setConfig('oauth.oidc-clientId', idp.clientId)
    await setConfig('oauth.oidc-clientSecret', idp.clientSecret)

    const early = await api('GET', '/api/oauth/auth/oidc', { headers: FORGED })
    assert.equal(early.status, 302)
    assert.equal(
      early.headers.get('location'),
      '/error?error=app_url_unconfirmed&redirect=%2Fauth%2FsignIn&params=oidc'
    )
    assert.notProperty(early.cookies, 'oauth_oidc_state')
    const page = await api('GET', early.headers.get('location')!, {
      headers: { accept: 'text/html' },
    })
    assert.include(
      page.bytes.toString('utf8'),
      'Sign-in with OpenID Connect is not available yet: an administrator first has to confirm the address of this site.'
    )

    await confirm(CONFIRMED)
    const later = await api('GET', '/api/oauth/auth/oidc', { headers: FORGED })
    assert.equal(later.status, 302)
    const authorize = new URL(later.headers.get('location')!)
    assert.equal(authorize.origin, new URL(idp.issuer).origin)
    assert.equal(authorize.searchParams.get('redirect_uri'), `${CONFIRMED}/api/oauth/callback/oidc`)
    // The provider takes it: it is the URI registered there (a wrong one answers 400 before any login form).
    const atProvider = await fetch(authorize, { redirect: 'manual' })
    assert.oneOf(atProvider.status, [302, 303])
    assert.notInclude(atProvider.headers.get('location') ?? '', 'error=')
  })

  test('pages and the admin shell say whether the address is confirmed; GET /api/configs keeps the Pingvin view', async ({
    assert,
  }) => {
    const props = async () => {
      const response = await api('GET', '/auth/signIn', {
        headers: { accept: 'text/html', ...FORGED },
      })
      return pageObject(response.bytes.toString('utf8')).props
    }
    const bootOf = async (cookie: string) => {
      const html = (
        await api('GET', '/admin', { cookie, headers: { accept: 'text/html' } })
      ).bytes.toString('utf8')
      return JSON.parse(
        /<script id="tern-admin-boot" type="application\/json">([^<]*)<\/script>/.exec(html)![1]
      )
    }
    const publicAppUrl = async () =>
      ((await api('GET', '/api/configs')).json as { key: string; value: string }[]).find(
        (v) => v.key === 'general.appUrl'
      )?.value
    const admin = await shareUser({ admin: true })

    assert.isFalse((await props()).appUrlConfirmed)
    assert.isNull((await bootOf(admin.cookie)).appUrl)
    assert.equal(await publicAppUrl(), 'http://localhost:3000')

    await confirm(`${CONFIRMED}/`)
    const confirmed = await props()
    assert.isTrue(confirmed.appUrlConfirmed)
    assert.equal(
      confirmed.configVariables.find((v: { key: string }) => v.key === 'general.appUrl').value,
      CONFIRMED
    )
    assert.equal((await bootOf(admin.cookie)).appUrl, CONFIRMED)
    assert.equal(await publicAppUrl(), `${CONFIRMED}/`)

    // Reset to the default ("" as Pingvin clients send it): not confirmed any more.
    const reset = await api('PATCH', '/api/configs/admin', {
      cookie: admin.cookie,
      json: [{ key: 'general.appUrl', value: '' }],
    })
    assert.equal(reset.status, 200)
    assert.isFalse((await props()).appUrlConfirmed)
  })

  test('an instance imported from Pingvin counts as confirmed when Pingvin had an address set, not when it kept the default', async ({
    assert,
  }) => {
    await importPingvinConfig(
      [{ category: 'general', name: 'appUrl', value: null, defaultValue: 'http://localhost:3000' }],
      { dryRun: false }
    )
    assert.isNull(await confirmedAppUrl())
    await importPingvinConfig(
      [{ category: 'general', name: 'appUrl', value: 'https://pingvin.example.com/' }],
      { dryRun: false }
    )
    assert.equal(await confirmedAppUrl(), 'https://pingvin.example.com')
  })
})
