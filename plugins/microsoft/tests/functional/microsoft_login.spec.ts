/**
 * The Microsoft plugin against a REAL OpenID provider (oidc-provider)
 * serving a tenant's v2.0 endpoints (`/<tenant>/v2.0/...`): the tenant
 * picks the discovery document, e-mails count as verified only with
 * `xms_edov` or for personal accounts, and the tenant setting is validated.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authProviders } from '#extensions/auth/main'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { createUser } from '#tests/helpers/auth'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { startOidcProvider, type TestOidcProvider } from '#tests/helpers/oidc_provider'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { clearDiscoveryCache } from '#plugins/oidc/index'
import { microsoftEndpoints } from '../../index.js'

const configService = await app.container.make(ConfigService)

const TENANT = '0b7c1d4e-2a3f-4c5d-8e9f-a1b2c3d4e5f6'
let idp: TestOidcProvider

async function signInAs(sub: string) {
  const browser = new OauthBrowser()
  const form = await browser.follow(`${ternUrl()}/api/oauth/auth/microsoft`)
  return browser.submitLogin(form, sub)
}

test.group('Microsoft plugin', (group) => {
  group.setup(async () => {
    idp = await startOidcProvider({
      redirectUris: [`${ternUrl()}/api/oauth/callback/microsoft`],
      mountPath: `/${TENANT}/v2.0`,
      extraClaims: { openid: ['tid'], email: ['xms_edov'] },
    })
    const saved = microsoftEndpoints.base
    microsoftEndpoints.base = new URL(idp.issuer).origin
    return async () => {
      microsoftEndpoints.base = saved
      clearDiscoveryCache()
      await idp.close()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await configureOauth({
      'oauth.microsoft-enabled': true,
      'oauth.microsoft-tenant': TENANT,
      'oauth.microsoft-clientId': idp.clientId,
      'oauth.microsoft-clientSecret': idp.clientSecret,
    })
    return rollback
  })

  test('registers "Microsoft"', ({ assert }) => {
    assert.equal(authProviders.get('microsoft').displayName, 'Microsoft')
  })

  test("signs up through the tenant's endpoints with a domain-verified e-mail", async ({
    assert,
  }) => {
    idp.addAccount('ms-1', {
      email: 'mia@contoso.example',
      tid: TENANT,
      xms_edov: true,
      preferred_username: 'mia@contoso.example',
      name: 'Mia',
    })
    assert.equal(locationOf(await signInAs('ms-1')), '/upload')
    assert.equal((await User.findByOrFail('email', 'mia@contoso.example')).username, 'mia')
  })

  test('an e-mail without xms_edov is not trusted: unverified_account', async ({ assert }) => {
    idp.addAccount('ms-2', { email: 'admin@victim.example', email_verified: true, tid: TENANT })
    assert.equal(errorPageOf(await signInAs('ms-2'))?.error, 'unverified_account')
    assert.isNull(await User.findBy('email', 'admin@victim.example'))
  })

  test('nOAuth: an unverified e-mail claim never links to the Tern user of that address', async ({
    assert,
  }) => {
    const victim = await createUser({ email: 'boss@victim.example' })
    idp.addAccount('ms-attacker', {
      email: 'boss@victim.example',
      email_verified: true,
      tid: TENANT,
      name: 'Boss',
    })
    assert.equal(errorPageOf(await signInAs('ms-attacker'))?.error, 'unverified_account')
    assert.lengthOf(await SocialAccount.query().where('userId', victim.id), 0)
  })

  test('an account linked before signs in by its subject, whatever its e-mail claim', async ({
    assert,
  }) => {
    const owner = await createUser({ email: 'linked@contoso.example' })
    await SocialAccount.create({
      userId: owner.id,
      provider: 'microsoft',
      providerUserId: 'ms-linked',
      providerUsername: 'old',
    })
    idp.addAccount('ms-linked', {
      email: 'changed@elsewhere.example',
      tid: TENANT,
      preferred_username: 'linked@contoso.example',
    })
    assert.equal(locationOf(await signInAs('ms-linked')), '/upload')
    assert.isNull(await User.findBy('email', 'changed@elsewhere.example'))
  })

  test('another tenant has no such endpoints: the sign-in ends on the error page', async ({
    client,
    assert,
  }) => {
    await configureOauth({ 'oauth.microsoft-tenant': 'organizations' })
    const response = await client.get('/api/oauth/auth/microsoft').redirects(0)
    response.assertStatus(302)
    assert.equal(
      response.header('location'),
      '/error?error=default&redirect=%2Fauth%2FsignIn&params=microsoft'
    )
  })

  test('the tenant setting accepts common, organizations, consumers, domains and GUIDs only', async ({
    assert,
  }) => {
    for (const tenant of [
      'common',
      'organizations',
      'consumers',
      'contoso.onmicrosoft.com',
      TENANT,
    ]) {
      await configService.update([{ key: 'oauth.microsoft-tenant', value: tenant }])
    }
    await assert.rejects(() =>
      configService.update([{ key: 'oauth.microsoft-tenant', value: 'not a tenant!' }])
    )
  })
})
