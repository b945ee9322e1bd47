/**
 * LDAP sign-in end to end: POST /api/auth/signIn against a real OpenLDAP
 * server (Debian's slapd, started on loopback by tests/helpers/slapd_server
 * with the memberof overlay): account creation and linking, the admin group,
 * filter escaping, TOTP, and what the user sees when the directory refuses
 * the service account or cannot be reached.
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import ConfigService from '#services/config/config_service'
import MailService from '#services/mail/mail_service'
import PasswordResetToken from '#models/password_reset_token'
import db from '@adonisjs/lucid/services/db'
import { startSmtpServer } from '#tests/helpers/smtp_server'
import { until } from '#tests/helpers/outbox'
import { DIRECTORY_UNAVAILABLE_MESSAGE } from '#services/auth/external_sign_in_service'
import {
  authHeaderFor,
  awayFromTotpStepEnd,
  createUser,
  totpCode,
  uniqueIp,
} from '#tests/helpers/auth'
import { SlapdServer } from '#tests/helpers/slapd_server'
import { freePort } from '#tests/helpers/test_database'
import { LDAP_CONFIG_KEYS, searchFilter } from '../../index.js'

const configService = await app.container.make(ConfigService)
const mailService = await app.container.make(MailService)

let ldap: SlapdServer
let adminsGroup: string

/** A uid no other test uses (the directory lives for the whole group). */
function uid(prefix: string): string {
  return `${prefix}${randomBytes(3).toString('hex')}`
}

/** Points the ldap settings at the test server (service account, people, admins group, mail). */
async function configureLdap(overrides: Record<string, string | boolean> = {}) {
  const settings: Record<string, string | boolean> = {
    'ldap.enabled': true,
    'ldap.url': ldap.url,
    'ldap.bindDn': ldap.service.dn,
    'ldap.bindPassword': ldap.service.password,
    'ldap.searchBase': ldap.peopleDn,
    'ldap.searchQuery': '(&(objectClass=inetOrgPerson)(uid=%username%))',
    'ldap.adminGroups': adminsGroup,
    'ldap.fieldNameMemberOf': 'memberOf',
    'ldap.fieldNameEmail': 'mail',
    ...overrides,
  }
  await configService.update(Object.entries(settings).map(([key, value]) => ({ key, value })))
}

/** POST /api/auth/signIn from an IP of its own (rate limits of one test never touch another's). */
function signIn(client: any, body: Record<string, string>) {
  return client.post('/api/auth/signIn').header('X-Forwarded-For', uniqueIp()).json(body)
}

test.group('LDAP plugin | sign-in against slapd', (group) => {
  group.setup(async () => {
    ldap = await SlapdServer.start()
    // groupOfNames needs a member: the service account keeps the group alive when people leave it.
    adminsGroup = await ldap.addGroup('tern-admins', [ldap.service.dn])
    return () => ldap.stop()
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    // A local admin exists, so LDAP accounts are not the instance's first (admin) account.
    await createUser({ admin: true })
    await configureLdap()
    return rollback
  })

  test('the first sign-in creates the account and links it to the DN; the second finds the same account', async ({
    client,
    assert,
  }) => {
    const name = uid('alice')
    const dn = await ldap.addPerson({
      uid: name,
      password: 'alice-secret',
      mail: `${name}@tern.test`,
    })

    const first = await signIn(client, { username: name, password: 'alice-secret' })
    first.assertStatus(200)
    assert.properties(first.body(), ['accessToken', 'refreshToken'])
    const user = await User.findByOrFail('username', name)
    assert.equal(user.email, `${name}@tern.test`)
    // A random local password nobody knows: changing it needs the old one.
    assert.isNotNull(user.password)
    const change = await client
      .patch('/api/auth/password')
      .header(...(await authHeaderFor(user)))
      .json({ password: 'a-local-password' })
    change.assertStatus(403)
    assert.isFalse(user.isAdmin)
    const link = await SocialAccount.query()
      .where('provider', 'ldap')
      .where('userId', user.id)
      .firstOrFail()
    assert.equal(link.providerUserId, dn)

    const second = await signIn(client, { username: name, password: 'alice-secret' })
    second.assertStatus(200)
    const me = await client
      .get('/api/users/me')
      .header('Authorization', `Bearer ${second.body().accessToken}`)
    assert.equal(me.body().id, user.id)
    assert.lengthOf(await User.query().where('username', name), 1)
    assert.lengthOf(
      await SocialAccount.query().where('provider', 'ldap').where('providerUserId', dn),
      1
    )
  })

  test('a wrong password and an unknown login get the same 401 as a wrong local password', async ({
    client,
    assert,
  }) => {
    const name = uid('bob')
    await ldap.addPerson({ uid: name, password: 'bob-secret', mail: `${name}@tern.test` })
    const local = await createUser({ password: 'local-secret' })
    const wrongLocal = await signIn(client, { username: local.username, password: 'nope' })
    wrongLocal.assertStatus(401)

    const wrong = await signIn(client, { username: name, password: 'not-bob-secret' })
    const unknown = await signIn(client, { username: uid('nobody'), password: 'whatever' })
    const empty = await signIn(client, { username: name, password: '' })
    for (const response of [wrong, unknown, empty]) {
      response.assertStatus(401)
      assert.deepEqual(response.body(), wrongLocal.body())
    }
    assert.isNull(await User.findBy('username', name))
  })

  test('members of ldap.adminGroups are admins; removed from the group, demoted at the next sign-in', async ({
    client,
    assert,
  }) => {
    const name = uid('dave')
    const dn = await ldap.addPerson({
      uid: name,
      password: 'dave-secret',
      mail: `${name}@tern.test`,
    })
    await ldap.changeMember(adminsGroup, 'add', dn)

    ;(await signIn(client, { username: name, password: 'dave-secret' })).assertStatus(200)
    assert.isTrue((await User.findByOrFail('username', name)).isAdmin)

    await ldap.changeMember(adminsGroup, 'delete', dn)
    ;(await signIn(client, { username: name, password: 'dave-secret' })).assertStatus(200)
    assert.isFalse((await User.findByOrFail('username', name)).isAdmin)

    await ldap.changeMember(adminsGroup, 'add', dn)
    ;(await signIn(client, { username: name, password: 'dave-secret' })).assertStatus(200)
    assert.isTrue((await User.findByOrFail('username', name)).isAdmin)
  })

  test('the login name is escaped in the filter: an injection is refused, special characters still match', async ({
    client,
    assert,
  }) => {
    const name = uid('eve')
    await ldap.addPerson({ uid: name, password: 'eve-secret', mail: `${name}@tern.test` })
    // Unescaped, these would turn the filter into one matching eve (or everyone).
    for (const login of ['*)(uid=*', `${name.slice(0, 4)}*`, `*`, `${name})(|(uid=*`]) {
      const response = await signIn(client, { username: login, password: 'eve-secret' })
      response.assertStatus(401)
    }
    assert.lengthOf(await User.query().where('username', 'like', 'eve%'), 0)
    // What the server received for the first one: one value, no filter syntax left.
    assert.equal(await searchFilter('(uid=%username%)', '*)(uid=*'), '(uid=\\2a\\29\\28uid=\\2a)')

    const odd = `o(k)*${randomBytes(2).toString('hex')}`
    await ldap.addPerson({
      uid: odd,
      password: 'odd-secret',
      mail: `odd${randomBytes(2).toString('hex')}@tern.test`,
    })
    ;(await signIn(client, { username: odd, password: 'odd-secret' })).assertStatus(200)
    assert.isNotNull(await User.findBy('username', odd))
  })

  test('a user with TOTP gets the TOTP step, then signs in with a code', async ({
    client,
    assert,
  }) => {
    const name = uid('fay')
    await ldap.addPerson({ uid: name, password: 'fay-secret', mail: `${name}@tern.test` })
    ;(await signIn(client, { username: name, password: 'fay-secret' })).assertStatus(200)
    const user = await User.findByOrFail('username', name)

    // TOTP on (the set-up routes are tested in tests/functional/auth/totp.spec.ts).
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    user.merge({ totpSecret: secret, totpVerified: true, totpLastStep: null })
    await user.save()

    const challenge = await signIn(client, { username: name, password: 'fay-secret' })
    challenge.assertStatus(200)
    assert.properties(challenge.body(), ['loginToken'])
    assert.notProperty(challenge.body(), 'accessToken')
    await awayFromTotpStepEnd()
    const done = await client
      .post('/api/auth/signIn/totp')
      .header('X-Forwarded-For', uniqueIp())
      .json({ loginToken: challenge.body().loginToken, totp: await totpCode(secret) })
    done.assertStatus(200)
    assert.properties(done.body(), ['accessToken'])
  })

  test('a refused service account or an unreachable server: 503 with a plain message; local passwords still work', async ({
    client,
    assert,
  }) => {
    const name = uid('gus')
    await ldap.addPerson({ uid: name, password: 'gus-secret', mail: `${name}@tern.test` })
    const local = await createUser({ password: 'local-secret' })

    await configureLdap({ 'ldap.bindPassword': 'wrong-service-password' })
    const refused = await signIn(client, { username: name, password: 'gus-secret' })
    refused.assertStatus(503)
    refused.assertHeader('retry-after', '30')
    assert.deepEqual(refused.body(), {
      statusCode: 503,
      message: DIRECTORY_UNAVAILABLE_MESSAGE,
      error: 'Service Unavailable',
    })
    ;(await signIn(client, { username: local.username, password: 'local-secret' })).assertStatus(
      200
    )

    await configureLdap({ 'ldap.url': `ldap://127.0.0.1:${await freePort()}` })
    const unreachable = await signIn(client, { username: name, password: 'gus-secret' })
    unreachable.assertStatus(503)
    assert.equal(unreachable.body().message, DIRECTORY_UNAVAILABLE_MESSAGE)

    // Several URLs: a dead one first, the next one answers.
    await configureLdap({ 'ldap.url': `ldap://127.0.0.1:${await freePort()}, ${ldap.url}` })
    ;(await signIn(client, { username: name, password: 'gus-secret' })).assertStatus(200)
  })

  test('anonymous search when ldap.bindDn is empty', async ({ client }) => {
    const name = uid('hal')
    await ldap.addPerson({ uid: name, password: 'hal-secret', mail: `${name}@tern.test` })
    await configureLdap({ 'ldap.bindDn': '', 'ldap.bindPassword': '' })
    ;(await signIn(client, { username: name, password: 'hal-secret' })).assertStatus(200)
  })

  test('no e-mail attribute: a placeholder address; an existing account of that name and e-mail is linked, another one is a clear 400', async ({
    client,
    assert,
  }) => {
    const bare = uid('ivy')
    await ldap.addPerson({ uid: bare, password: 'ivy-secret' })
    ;(await signIn(client, { username: bare, password: 'ivy-secret' })).assertStatus(200)
    assert.match((await User.findByOrFail('username', bare)).email, /^[0-9a-f-]{36}@ldap\.local$/)

    const same = uid('jo')
    const sameUser = await createUser({
      username: same,
      email: `${same}@tern.test`,
      password: 'old-local',
    })
    const sameDn = await ldap.addPerson({
      uid: same,
      password: 'jo-secret',
      mail: `${same}@tern.test`,
    })
    ;(await signIn(client, { username: same, password: 'jo-secret' })).assertStatus(200)
    const link = await SocialAccount.query()
      .where('provider', 'ldap')
      .where('providerUserId', sameDn)
      .firstOrFail()
    assert.equal(link.userId, sameUser.id)

    const taken = uid('kim')
    await createUser({ username: taken, email: `someone-else-${taken}@example.com` })
    await ldap.addPerson({ uid: taken, password: 'kim-secret', mail: `${taken}@tern.test` })
    const collision = await signIn(client, { username: taken, password: 'kim-secret' })
    collision.assertStatus(400)
    assert.include(collision.body().message, `A user with the username "${taken}" already exists`)
    assert.lengthOf(await User.query().where('username', taken), 1)
  })

  test('oauth.disablePassword: the local password is not checked, LDAP still signs in; ldap.enabled off: LDAP is not asked', async ({
    client,
  }) => {
    const name = uid('lee')
    await ldap.addPerson({ uid: name, password: 'lee-secret', mail: `${name}@tern.test` })
    const local = await createUser({ password: 'local-secret' })
    await configService.update([{ key: 'oauth.disablePassword', value: true }])
    ;(await signIn(client, { username: local.username, password: 'local-secret' })).assertStatus(
      401
    )
    ;(await signIn(client, { username: name, password: 'lee-secret' })).assertStatus(200)

    await configureLdap({ 'ldap.enabled': false })
    ;(await signIn(client, { username: name, password: 'lee-secret' })).assertStatus(403)
    await configService.update([{ key: 'oauth.disablePassword', value: false }])
    ;(await signIn(client, { username: name, password: 'lee-secret' })).assertStatus(401)
  })

  test("the admin panel lists the LDAP category with Pingvin's keys in order; bad settings are refused", async ({
    client,
    assert,
  }) => {
    const admin = await createUser({ admin: true })
    const header = await authHeaderFor(admin)
    const categories = await client.get('/api/configs/admin').header(...header)
    categories.assertStatus(200)
    assert.containsSubset(
      categories.body().find((entry: { category: string }) => entry.category === 'ldap'),
      { category: 'ldap', name: 'LDAP', order: 55, source: 'ldap' }
    )
    const variables = await client.get('/api/configs/admin/ldap').header(...header)
    variables.assertStatus(200)
    assert.deepEqual(
      variables.body().map((variable: { key: string }) => variable.key),
      [...LDAP_CONFIG_KEYS]
    )
    const password = variables
      .body()
      .find((variable: { key: string }) => variable.key === 'ldap.bindPassword')
    assert.notEqual(password.value, ldap.service.password)

    for (const [key, value] of [
      ['ldap.url', 'http://directory.example'],
      ['ldap.searchQuery', '(uid=alice)'],
      ['ldap.searchQuery', '(uid=%username%'],
    ]) {
      const refused = await client
        .patch('/api/configs/admin')
        .header(...header)
        .json([{ key, value }])
      refused.assertStatus(400)
    }
    const publicConfigs = await client.get('/api/configs')
    assert.containsSubset(
      publicConfigs.body().find((variable: { key: string }) => variable.key === 'ldap.enabled'),
      { key: 'ldap.enabled', value: 'true' }
    )
  })

  test('an LDAP account is sent no password-reset link (a local password would outlive the directory account)', async ({
    client,
    assert,
  }) => {
    const smtp = await startSmtpServer()
    try {
      await configService.update([
        { key: 'smtp.enabled', value: true },
        { key: 'smtp.host', value: '127.0.0.1' },
        { key: 'smtp.port', value: smtp.port },
        { key: 'smtp.email', value: 'noreply@tern.test' },
        // Reset links are mailed only to a confirmed public address (#services/auth/password_reset_service).
        { key: 'general.appUrl', value: 'https://tern.example.com' },
      ])
      const name = uid('mia')
      await ldap.addPerson({ uid: name, password: 'mia-secret', mail: `${name}@tern.test` })
      ;(await signIn(client, { username: name, password: 'mia-secret' })).assertStatus(200)
      const ldapUser = await User.findByOrFail('username', name)
      const local = await createUser({ email: `local-${name}@example.com` })

      ;(await client.post(`/api/auth/resetPassword/${name}@tern.test`)).assertStatus(202)
      ;(await client.post(`/api/auth/resetPassword/local-${name}@example.com`)).assertStatus(202)
      await until(
        () =>
          db
            .from('notification_deliveries')
            .where('event_type', 'auth:password_reset_request')
            .where('status', 'pending'),
        (rows) => rows.length === 0,
        'both reset requests handled'
      )
      await smtp.waitForMessage((message) =>
        (message.to as any)?.text?.includes(`local-${name}@example.com`)
      )
      await mailService.idle()
      assert.lengthOf(smtp.messages, 1)
      assert.isNotNull(await PasswordResetToken.findBy('userId', local.id))
      assert.isNull(await PasswordResetToken.findBy('userId', ldapUser.id))
    } finally {
      await mailService.idle()
      await smtp.close()
    }
  })
})
