/**
 * The account events reach their routes, caused over HTTP as people cause
 * them: an admin inviting a user (`user.invited`, an instance route), a
 * password-reset request (`auth.password_reset_requested`, to the account's
 * owner, never with the link; the reset mail itself is unchanged) and a
 * sign-in from a device the user has not used before
 * (`auth.new_device_sign_in`; the first sign-in ever is not "new").
 */
import { test } from '@japa/runner'
import ConfigVariable from '#models/config_variable'
import User from '#models/user'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { uniqueIp } from '#tests/helpers/auth'
import { useSmtpPort } from '#tests/helpers/outbox'
import { api, cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'
import { startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { startOidcProvider, type TestOidcProvider } from '#tests/helpers/oidc_provider'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, locationOf, ternUrl } from '#tests/helpers/oauth'
import { clearDiscoveryCache } from '#plugins/oidc/index'
import {
  delivered,
  resetRecording,
  routeInstance,
  routeOwn,
} from '#tests/functional/notifications/emission_support'

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const FIREFOX_LINUX_UPDATED =
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0'
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/** Signs `email` in with the test password from `ip` with `userAgent`; throws unless 200. */
async function signIn(email: string, userAgent: string, ip: string): Promise<void> {
  const response = await api('POST', '/api/auth/signIn', {
    json: { email, password: 'password123' },
    headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
  })
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${response.bytes}`)
}

test.group('Notifications | account events', (group) => {
  let smtp: TestSmtpServer
  group.setup(async () => {
    smtp = await startSmtpServer()
    return () => smtp.close()
  })
  group.teardown(cleanCommittedData)
  group.each.setup(async () => {
    smtp.clear()
    await useSmtpPort(smtp.port)
  })
  group.each.teardown(async () => {
    await resetRecording()
    await User.query().where('username', 'like', 'invitee%').delete()
    await cleanupShareTests()
  })

  test('user.invited goes to the instance route when an admin invites, not when he sets a password', async ({
    assert,
  }) => {
    const admin = await shareUser({ admin: true })
    await routeInstance(admin.cookie, ['user.invited'])
    const invited = await api('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: 'invitee_one', email: 'invitee_one@example.com' },
    })
    assert.equal(invited.status, 201)
    const created = await api('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: 'invitee_two', email: 'invitee_two@example.com', password: 'password123' },
    })
    assert.equal(created.status, 201)
    await smtp.waitForMessage((mail) => JSON.stringify(mail.to).includes('invitee_one@example.com'))

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'user.invited')
    assert.deepEqual(messages[0].payload, {
      user: { id: invited.json.id, username: 'invitee_one', email: 'invitee_one@example.com' },
      invitedBy: admin.user.id,
    })
    assert.isUndefined(messages[0].recipient)
    assert.notMatch(JSON.stringify(messages[0]), /password/i)
  })

  test('auth.password_reset_requested reaches the account owner without the link; the reset mail still goes out', async ({
    assert,
  }) => {
    // Reset links are mailed only to a confirmed public address (#services/auth/password_reset_service).
    await setConfig('general.appUrl', 'https://tern.example.com')
    const { user, cookie } = await shareUser()
    const other = await shareUser()
    await routeOwn(cookie, ['auth.password_reset_requested'])
    for (const email of [user.email, other.user.email, 'nobody@example.com']) {
      const response = await api('POST', `/api/auth/resetPassword/${encodeURIComponent(email)}`, {
        headers: { 'x-forwarded-for': uniqueIp() },
      })
      assert.equal(response.status, 202)
    }

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'auth.password_reset_requested')
    assert.deepEqual(messages[0].payload, {
      user: { id: user.id, username: user.username, email: user.email },
    })
    assert.equal(messages[0].recipient?.userId, user.id)
    const mail = await smtp.waitForMessage((received) =>
      JSON.stringify(received.to).includes(user.email)
    )
    const link = /\/auth\/resetPassword\/([\w-]+)/.exec(mail.text ?? '')
    assert.isNotNull(link)
    assert.notInclude(JSON.stringify(messages[0]), link![1])
  })

  test('auth.new_device_sign_in: not the first device, not a known one (browser update, same network), yes a new browser or network', async ({
    assert,
  }) => {
    const { user, cookie } = await shareUser()
    const other = await shareUser()
    await routeOwn(cookie, ['auth.new_device_sign_in'])
    await signIn(user.email, FIREFOX_LINUX, '10.20.30.4')
    await signIn(user.email, FIREFOX_LINUX_UPDATED, '10.20.30.99')
    assert.lengthOf(await delivered(), 0)

    await signIn(user.email, CHROME_WINDOWS, '10.20.30.4')
    await signIn(user.email, CHROME_WINDOWS, '10.20.30.5')
    await signIn(user.email, FIREFOX_LINUX, '192.168.7.1')
    // Another user's new devices are his own business (and he has no route).
    await signIn(other.user.email, FIREFOX_LINUX, '10.20.30.4')
    await signIn(other.user.email, CHROME_WINDOWS, '10.20.30.4')

    const messages = await delivered()
    assert.deepEqual(
      messages.map((message) => [message.event, message.payload.device, message.payload.ip]),
      [
        ['auth.new_device_sign_in', CHROME_WINDOWS, '10.20.30.4'],
        ['auth.new_device_sign_in', FIREFOX_LINUX, '192.168.7.1'],
      ]
    )
    assert.deepEqual(messages[0].payload.user, {
      id: user.id,
      username: user.username,
      email: user.email,
    })
    assert.equal(messages[0].recipient?.userId, user.id)
  })
})

/** The settings the social-login group changes (reset to their defaults after it). */
const OAUTH_KEYS = [
  'general.appUrl',
  'oauth.oidc-enabled',
  'oauth.oidc-discoveryUri',
  'oauth.oidc-clientId',
  'oauth.oidc-clientSecret',
]

test.group('Notifications | new device through social login', (group) => {
  let idp: TestOidcProvider
  group.setup(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ternUrl()}/api/oauth/callback/oidc`] })
    return async () => {
      clearDiscoveryCache()
      await idp.close()
      await ConfigVariable.query().whereIn('key', OAUTH_KEYS).update({ value: null })
    }
  })
  group.teardown(cleanCommittedData)
  group.each.teardown(async () => {
    await resetRecording()
    await cleanupShareTests()
  })

  test('a social sign-in from another device than the password sign-ins is new', async ({
    assert,
  }) => {
    await configureOauth({
      'oauth.oidc-enabled': true,
      'oauth.oidc-discoveryUri': idp.discoveryUri,
      'oauth.oidc-clientId': idp.clientId,
      'oauth.oidc-clientSecret': idp.clientSecret,
    })
    const { user, cookie } = await shareUser()
    await routeOwn(cookie, ['auth.new_device_sign_in'])
    await signIn(user.email, FIREFOX_LINUX, '10.20.30.4')
    idp.addAccount('sub-device', { email: user.email, email_verified: true })

    const browser = new OauthBrowser()
    const form = await browser.follow(`${ternUrl()}/api/oauth/auth/oidc`)
    assert.equal(locationOf(await browser.submitLogin(form, 'sub-device')), '/upload')

    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'auth.new_device_sign_in')
    assert.equal(messages[0].payload.user.id, user.id)
  })
})
