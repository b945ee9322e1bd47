/**
 * The guard of the one place where the core goes past Ally's public API
 * (app/controllers/oauth/ally_driver.ts, `adoptPendingAuthorization`): it
 * sets the protected `stateCookieValue`, `codeVerifierCookieName` and
 * `codeVerifierCookieValue` of Ally's `Oauth2Driver`. These tests fail,
 * naming the member, when the installed Ally is not the version pinned in
 * package.json, or when its drivers no longer read those members at the
 * callback (state check, `state` and `code_verifier` at the token exchange)
 * or no longer make their own PKCE verifier at the redirect while
 * `codeVerifierCookieName` is unset. Real Ally drivers against a local token
 * endpoint.
 */
import { readFile } from 'node:fs/promises'
import { createServer, IncomingMessage, type Server } from 'node:http'
import { Socket, type AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { HttpContext } from '@adonisjs/core/http'
import { GithubDriver } from '@adonisjs/ally/drivers/github'
import { TwitterXDriver } from '@adonisjs/ally/drivers/twitter_x'
import { adoptPendingAuthorization } from '#controllers/oauth/ally_driver'

const COOKIE = 'oauth_test_state'

let server: Server
let origin: string
/** The form of the last token request. */
let lastToken: URLSearchParams | undefined

async function json(path: string) {
  return JSON.parse(await readFile(new URL(path, import.meta.url), 'utf8'))
}

/** An HttpContext of `GET /callback?<query>`. */
async function contextOf(query: string) {
  const req = new IncomingMessage(new Socket())
  req.method = 'GET'
  req.url = `/callback?${query}`
  return testUtils.createHttpContext({ req })
}

async function github(query = 'code=the-code&state=the-state') {
  return new GithubDriver(await contextOf(query), {
    clientId: 'client',
    clientSecret: 'secret',
    callbackUrl: 'http://tern.test/callback',
    authorizeUrl: `${origin}/authorize`,
    accessTokenUrl: `${origin}/token`,
  })
}

function twitterX(ctx: HttpContext) {
  return new TwitterXDriver(ctx, {
    clientId: 'client',
    clientSecret: 'secret',
    callbackUrl: 'http://tern.test/callback',
    authorizeUrl: `${origin}/authorize`,
    accessTokenUrl: `${origin}/token`,
  })
}

test.group('OAuth | the Ally internals the core relies on', (group) => {
  group.setup(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk) => chunks.push(chunk))
      req.on('end', () => {
        lastToken = new URLSearchParams(Buffer.concat(chunks).toString())
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ access_token: 'at', token_type: 'bearer' }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
  group.each.setup(() => {
    lastToken = undefined
  })

  test('the installed @adonisjs/ally is exactly the version package.json pins', async ({
    assert,
  }) => {
    const packageJson = await json('../../../package.json')
    const allyJson = await json('../../../node_modules/@adonisjs/ally/package.json')
    const pinned = packageJson.dependencies['@adonisjs/ally']
    const installed = allyJson.version
    assert.match(
      pinned,
      /^\d+\.\d+\.\d+$/,
      'package.json must pin @adonisjs/ally to one exact version: app/controllers/oauth/ally_driver.ts sets protected members of its Oauth2Driver'
    )
    assert.equal(
      installed,
      pinned,
      `@adonisjs/ally ${installed} is installed but ${pinned} is pinned: check the members app/controllers/oauth/ally_driver.ts sets against the new Oauth2Driver, then move the pin`
    )
  })

  test('Oauth2Driver declares the members the core sets', async ({ assert }) => {
    const driver = (await github()) as unknown as Record<string, unknown>
    for (const member of [
      'stateCookieValue',
      'codeVerifierCookieName',
      'codeVerifierCookieValue',
    ]) {
      assert.isTrue(
        member in driver,
        `Ally's Oauth2Driver no longer has the member "${member}" that app/controllers/oauth/ally_driver.ts sets`
      )
    }
  })

  test('stateCookieValue: Ally compares it with the callback state and sends it at the token exchange', async ({
    assert,
  }) => {
    const same = await github('code=the-code&state=the-state')
    adoptPendingAuthorization(same, COOKIE, 'the-state', null)
    assert.isFalse(
      same.stateMisMatch(),
      'Ally no longer takes the state from "stateCookieValue" (the state check fails)'
    )
    await same.accessToken()
    assert.equal(
      lastToken?.get('state'),
      'the-state',
      'Ally\'s GithubDriver no longer sends "stateCookieValue" at the token exchange'
    )

    const other = await github('code=the-code&state=another-state')
    adoptPendingAuthorization(other, COOKIE, 'the-state', null)
    assert.isTrue(
      other.stateMisMatch(),
      'Ally no longer compares "stateCookieValue" with the callback state'
    )
  })

  test('codeVerifierCookieName and codeVerifierCookieValue: Ally sends the given verifier at the token exchange', async ({
    assert,
  }) => {
    const driver = await github()
    adoptPendingAuthorization(driver, COOKIE, 'the-state', 'the-verifier')
    await driver.accessToken()
    assert.equal(
      lastToken?.get('code_verifier'),
      'the-verifier',
      'Ally no longer sends "codeVerifierCookieValue" as code_verifier while "codeVerifierCookieName" is set'
    )

    const without = await github()
    adoptPendingAuthorization(without, COOKIE, 'the-state', null)
    await without.accessToken()
    assert.isNull(
      lastToken?.get('code_verifier') ?? null,
      'Ally sends a code_verifier although "codeVerifierCookieName" is unset'
    )
  })

  test('codeVerifierCookieName unset: a driver with PKCE of its own adds no challenge and no cookie at the redirect', async ({
    assert,
  }) => {
    const ctx = await contextOf('')
    const driver = twitterX(ctx)
    ctx.response.removeHeader('set-cookie')
    const own = new URL(await driver.redirectUrl())
    assert.isNotNull(
      own.searchParams.get('code_challenge'),
      "Ally's TwitterXDriver no longer has PKCE of its own: update this test's driver"
    )

    const adoptedCtx = await contextOf('')
    const adopted = twitterX(adoptedCtx)
    adoptedCtx.response.removeHeader('set-cookie')
    adoptPendingAuthorization(adopted, COOKIE, undefined, null)
    const url = new URL(await adopted.redirectUrl())
    assert.isNull(
      url.searchParams.get('code_challenge'),
      'Ally adds a PKCE challenge of its own although "codeVerifierCookieName" is unset'
    )
    assert.isUndefined(
      adoptedCtx.response.getHeader('set-cookie'),
      'Ally writes a verifier cookie although "codeVerifierCookieName" is unset'
    )
  })
})
