/**
 * Signing in through the OIDC plugin against the test provider
 * (tests/helpers/oidc_provider.ts), for groups of the social-login flow:
 *
 * ```ts
 * test.group('...', (group) => {
 *   const idp = oidcProviderPerGroup(group)    // running while the group runs
 *   test('...', async () => {
 *     idp.addAccount('alice', { email: 'alice@example.com', email_verified: true })
 *     const { browser, callback } = await signInWithOidc('alice')
 *   })
 * })
 * ```
 */
import type { Group } from '@japa/runner/core'
import testUtils from '@adonisjs/core/services/test_utils'
import { clearDiscoveryCache } from '#plugins/oidc/index'
import { startOidcProvider, type TestOidcProvider } from '#tests/helpers/oidc_provider'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, ternUrl } from '#tests/helpers/oauth'

/** Switches the oidc provider on against `idp`, with `extra` settings (full keys). */
export async function enableOidc(
  idp: TestOidcProvider,
  extra: Record<string, string | boolean> = {}
): Promise<void> {
  await configureOauth({
    'oauth.oidc-enabled': true,
    'oauth.oidc-discoveryUri': idp.discoveryUri,
    'oauth.oidc-clientId': idp.clientId,
    'oauth.oidc-clientSecret': idp.clientSecret,
    ...extra,
  })
}

/** Runs the whole flow as provider account `sub` in `browser`; answers Tern's callback response. */
export async function signInWithOidc(sub: string, browser = new OauthBrowser()) {
  const form = await browser.follow(`${ternUrl()}/api/oauth/auth/oidc`)
  return { browser, callback: await browser.submitLogin(form, sub) }
}

/**
 * Starts the test provider when the group starts (Tern's callback and home
 * page registered; closed, with the plugin's discovery cache, when it ends)
 * and runs each test in a rolled-back transaction with the oidc provider
 * switched on. The returned object stands for the provider (it reads
 * through to it).
 */
export function oidcProviderPerGroup(group: Group): TestOidcProvider {
  let idp: TestOidcProvider | undefined
  const current = () => {
    if (!idp) throw new Error('oidcProviderPerGroup: the group has not started')
    return idp
  }
  group.setup(async () => {
    idp = await startOidcProvider({
      redirectUris: [`${ternUrl()}/api/oauth/callback/oidc`],
      postLogoutRedirectUris: [ternUrl()],
    })
    return async () => {
      clearDiscoveryCache()
      await current().close()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await enableOidc(current())
    return rollback
  })
  return new Proxy({} as TestOidcProvider, { get: (_target, key) => Reflect.get(current(), key) })
}
