/**
 * The core's handling of Ally drivers, over real HTTP against local servers
 * answering like GitHub and Discord: the only cookie is the contract's
 * `oauth_<provider>_state` (Ally's own `gh_oauth_state` never appears), the
 * PKCE verifier sent at the token exchange matches the challenge of the
 * redirect (and none is sent to a provider registered with `pkce: false`),
 * and settings changed in the admin API apply to the next sign-in.
 */
import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import ConfigService from '#services/config/config_service'
import { OauthBrowser, type Visited } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { startFakeOauth2, type FakeOauth2 } from '#tests/helpers/fake_oauth2'
import { authHeaderFor, createUser } from '#tests/helpers/auth'
import { githubEndpoints } from '#plugins/github/index'
import { discordEndpoints, discordEndpointsAt } from '#plugins/discord/index'
import { startFakeGithub, type FakeGithub } from '#plugins/github/tests/fake_github'

let github: FakeGithub
let discord: FakeOauth2

/** The `Set-Cookie` lines of an answer as `{ name, attributes }` (attributes lower-cased). */
function setCookies(visited: Visited) {
  return visited.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim())
    return {
      name: pair.slice(0, pair.indexOf('=')),
      attributes: attributes.map((a) => a.toLowerCase()),
    }
  })
}

test.group('Social login | Ally drivers in the core', (group) => {
  group.setup(async () => {
    github = await startFakeGithub()
    discord = await startFakeOauth2({
      authorizePath: '/oauth2/authorize',
      tokenPath: '/api/oauth2/token',
      api: {
        '/api/users/@me': (account) => ({
          id: account.id,
          username: account.username,
          email: account.email,
          verified: true,
        }),
      },
    })
    const savedGithub = { ...githubEndpoints }
    const savedDiscord = { ...discordEndpoints }
    githubEndpoints.oauth = github.url
    githubEndpoints.api = github.url
    Object.assign(discordEndpoints, discordEndpointsAt(discord.url))
    return async () => {
      Object.assign(githubEndpoints, savedGithub)
      Object.assign(discordEndpoints, savedDiscord)
      await Promise.all([github.close(), discord.close()])
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    github.deny = false
    github.account = {
      id: 31,
      login: 'ally-cat',
      emails: [{ email: 'ally@example.com', primary: true, verified: true }],
    }
    discord.deny = false
    discord.account = { id: '8080', username: 'ally-dc', email: 'dc@example.com' }
    await configureOauth({
      'oauth.github-enabled': true,
      'oauth.github-clientId': github.clientId,
      'oauth.github-clientSecret': github.clientSecret,
      'oauth.discord-enabled': true,
      'oauth.discord-clientId': discord.clientId,
      'oauth.discord-clientSecret': discord.clientSecret,
      'oauth.discord-limitedGuild': '',
    })
    return rollback
  })

  test('the redirect sets only the oauth_<provider>_state cookie, with the contract attributes', async ({
    assert,
  }) => {
    const browser = new OauthBrowser()
    const redirect = await browser.request(`${ternUrl()}/api/oauth/auth/github`)
    assert.equal(redirect.status, 302)
    const cookies = setCookies(redirect)
    assert.deepEqual(
      cookies.map((cookie) => cookie.name),
      ['oauth_github_state']
    )
    assert.includeMembers(cookies[0].attributes, [
      'httponly',
      'path=/api/oauth/callback',
      'samesite=lax',
      'max-age=600',
    ])
    const location = new URL(locationOf(redirect))
    assert.equal(`${location.origin}${location.pathname}`, `${github.url}/login/oauth/authorize`)
    assert.equal(
      location.searchParams.get('redirect_uri'),
      `${ternUrl()}/api/oauth/callback/github`
    )
    assert.isAbove(location.searchParams.get('state')?.length ?? 0, 20)

    // The provider sends the browser back; the callback clears the state cookie and writes no Ally cookie.
    const callback = await browser.follow(location)
    assert.equal(locationOf(callback), '/upload')
    const names = setCookies(callback).map((cookie) => cookie.name)
    assert.include(names, 'oauth_github_state')
    assert.notInclude(names, 'gh_oauth_state')
    assert.isUndefined(browser.cookie(ternUrl(), 'oauth_github_state'))
    assert.exists(browser.cookie(ternUrl(), 'access_token'))
  })

  test('PKCE: the verifier of the token request matches the S256 challenge of the redirect', async ({
    assert,
  }) => {
    const browser = new OauthBrowser()
    assert.equal(locationOf(await browser.follow(`${ternUrl()}/api/oauth/auth/github`)), '/upload')
    const challenge = github.lastAuthorize?.get('code_challenge') ?? ''
    const verifier = github.lastToken?.get('code_verifier') ?? ''
    assert.equal(github.lastAuthorize?.get('code_challenge_method'), 'S256')
    assert.match(verifier, /^[\w-]{43,128}$/)
    assert.equal(createHash('sha256').update(verifier).digest('base64url'), challenge)
    // The verifier never travelled through the browser.
    assert.notInclude(github.lastAuthorize!.toString(), verifier)
    assert.equal(github.lastToken?.get('state'), github.lastAuthorize?.get('state'))
  })

  test('a provider registered with pkce: false gets no challenge and still its own state cookie', async ({
    assert,
  }) => {
    const browser = new OauthBrowser()
    const redirect = await browser.request(`${ternUrl()}/api/oauth/auth/discord`)
    assert.deepEqual(
      setCookies(redirect).map((cookie) => cookie.name),
      ['oauth_discord_state']
    )
    const location = new URL(locationOf(redirect))
    assert.isNull(location.searchParams.get('code_challenge'))
    assert.equal(locationOf(await browser.follow(location)), '/upload')
    assert.equal(discord.lastAuthorize?.get('scope'), 'identify email')
  })

  test('a callback with the state cookie of another sign-in is invalid_token', async ({
    assert,
  }) => {
    const victim = new OauthBrowser()
    const attacker = new OauthBrowser()
    const victimRedirect = new URL(
      locationOf(await victim.request(`${ternUrl()}/api/oauth/auth/github`))
    )
    await attacker.request(`${ternUrl()}/api/oauth/auth/github`)
    // The attacker's browser brings the victim's provider answer to Tern.
    const forged = await attacker.follow(victimRedirect)
    assert.equal(errorPageOf(forged)?.error, 'invalid_token')
  })

  test('settings changed through the admin API apply to the next sign-in, without restart', async ({
    client,
    assert,
  }) => {
    const admin = await authHeaderFor(await createUser({ admin: true }))
    const change = (key: string, value: string | boolean) =>
      client
        .patch('/api/configs/admin')
        .header(...admin)
        .json([{ key, value }])

    ;(await change('oauth.github-clientId', 'another-client')).assertStatus(200)
    const browser = new OauthBrowser()
    const redirect = new URL(
      locationOf(await browser.request(`${ternUrl()}/api/oauth/auth/github`))
    )
    assert.equal(redirect.searchParams.get('client_id'), 'another-client')
    // The fake knows no such client: the user is sent back with access_denied.
    assert.equal(errorPageOf(await browser.follow(redirect))?.error, 'access_denied')

    ;(await change('oauth.github-clientId', github.clientId)).assertStatus(200)
    assert.equal(
      locationOf(await new OauthBrowser().follow(`${ternUrl()}/api/oauth/auth/github`)),
      '/upload'
    )

    ;(await change('oauth.github-enabled', false)).assertStatus(200)
    const off = await new OauthBrowser().request(`${ternUrl()}/api/oauth/auth/github`)
    assert.equal(off.status, 403)
  })

  test('a provider whose settings make no driver sends the user to the error page', async ({
    assert,
  }) => {
    const configService = await app.container.make(ConfigService)
    await configService.update([{ key: 'oauth.github-clientId', value: '' }])
    const answer = await new OauthBrowser().request(`${ternUrl()}/api/oauth/auth/github`)
    assert.deepEqual(errorPageOf(answer), {
      error: 'default',
      redirect: '/auth/signIn',
      params: 'github',
    })
    assert.deepEqual(setCookies(answer), [])
  })
})
