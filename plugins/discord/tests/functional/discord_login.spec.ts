/**
 * The Discord plugin end to end against a local server answering like
 * Discord (authorization, token, users/@me, guilds): sign-up, the limited
 * server (guild) check, unverified accounts.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authProviders } from '#extensions/auth/main'
import User from '#models/user'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { startFakeOauth2, type FakeOauth2 } from '#tests/helpers/fake_oauth2'
import { discordEndpoints, discordEndpointsAt } from '../../index.js'

let discord: FakeOauth2

function signIn(browser = new OauthBrowser()) {
  return browser.follow(`${ternUrl()}/api/oauth/auth/discord`)
}

test.group('Discord plugin', (group) => {
  group.setup(async () => {
    discord = await startFakeOauth2({
      authorizePath: '/oauth2/authorize',
      tokenPath: '/api/oauth2/token',
      api: {
        '/api/users/@me': (account) => ({
          id: account.id,
          username: account.username,
          global_name: null,
          email: account.email,
          verified: account.verified,
        }),
        '/api/users/@me/guilds': (account) =>
          (account.guilds as string[]).map((id) => ({ id, name: `guild ${id}` })),
      },
    })
    const saved = { ...discordEndpoints }
    Object.assign(discordEndpoints, discordEndpointsAt(discord.url))
    return async () => {
      Object.assign(discordEndpoints, saved)
      await discord.close()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    discord.deny = false
    discord.account = null
    await configureOauth({
      'oauth.discord-enabled': true,
      'oauth.discord-clientId': discord.clientId,
      'oauth.discord-clientSecret': discord.clientSecret,
    })
    return rollback
  })

  test('registers "Discord"', ({ assert }) => {
    assert.equal(authProviders.get('discord').displayName, 'Discord')
  })

  test('signs up any verified user while no server is set (no guilds scope)', async ({
    assert,
  }) => {
    discord.account = {
      id: '1001',
      username: 'disco',
      email: 'disco@example.com',
      verified: true,
      guilds: [],
    }
    assert.equal(locationOf(await signIn()), '/upload')
    assert.equal(discord.lastAuthorize?.get('scope'), 'identify email')
    assert.equal((await User.findByOrFail('email', 'disco@example.com')).username, 'disco')
  })

  test('with a limited server: members get in, others get discord_guild_permission_denied', async ({
    assert,
  }) => {
    await configureOauth({ 'oauth.discord-limitedGuild': '123456789' })
    discord.account = {
      id: '1002',
      username: 'outsider',
      email: 'out@example.com',
      verified: true,
      guilds: ['999'],
    }
    assert.deepEqual(errorPageOf(await signIn()), {
      error: 'discord_guild_permission_denied',
      redirect: '/auth/signIn',
      params: 'discord',
    })
    assert.equal(discord.lastAuthorize?.get('scope'), 'identify email guilds')
    assert.isNull(await User.findBy('email', 'out@example.com'))
    discord.account = {
      id: '1003',
      username: 'member',
      email: 'member@example.com',
      verified: true,
      guilds: ['999', '123456789'],
    }
    assert.equal(locationOf(await signIn()), '/upload')
  })

  test('an unverified account: unverified_account', async ({ assert }) => {
    discord.account = {
      id: '1004',
      username: 'unv',
      email: 'unv@example.com',
      verified: false,
      guilds: [],
    }
    assert.equal(errorPageOf(await signIn())?.error, 'unverified_account')
  })
})
