import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { rememberDevice, signInDeviceOf } from '#controllers/auth/known_device_cookie'
import { takeStateCookie, writeStateCookie } from '#controllers/oauth/state_cookie'
import { authorizationUrl, providerUser } from '#controllers/oauth/ally_driver'
import OauthService, { errorPageUrl, type StartedSignIn } from '#services/oauth/oauth_service'
import { SocialLoginException } from '#extensions/auth/main'
import { providerNotAvailable } from '#services/oauth/oauth_errors'
import KnownDevices from '#services/auth/known_devices'
import SocialAccountTransformer from '#transformers/social_account_transformer'
import { isProviderId } from '#validators/oauth'
import { LANDING_PATH } from '#controllers/pages/auth_pages_controller'

/**
 * The `:provider` of the path; 403 (as for an unknown provider) when it is
 * no provider id, since it becomes part of a cookie name and a redirect.
 */
function providerOf(ctx: HttpContext): string {
  const provider = ctx.params.provider
  if (!isProviderId(provider)) throw providerNotAvailable()
  return provider
}

/** Social login routes (`/api/oauth/*`, as Pingvin names them). */
@inject()
export default class OauthController {
  constructor(
    protected oauth: OauthService,
    protected devices: KnownDevices
  ) {}

  /** GET /api/oauth/available: ids of the enabled providers. */
  async available({ response }: HttpContext) {
    return response.ok(await this.oauth.availableProviders())
  }

  /** GET /api/oauth/status: the caller's linked providers. */
  async status(ctx: HttpContext) {
    return ctx.response.ok(
      SocialAccountTransformer.statusJSON(await this.oauth.linkedAccounts(ctx.auth.getUserOrFail()))
    )
  }

  /**
   * GET /api/oauth/auth/:provider: 302 to the provider with the state cookie
   * (or to /error, e.g. while the public address is not confirmed); 403 unknown/disabled.
   */
  async authorize(ctx: HttpContext) {
    const provider = providerOf(ctx)
    let started: StartedSignIn
    try {
      started = await this.oauth.start(provider)
    } catch (error) {
      // The 403 of an unknown or disabled provider stays an answer of its own.
      if (!(error instanceof SocialLoginException)) throw error
      return ctx.response.redirect(this.oauth.startFailed(provider, error))
    }
    const { definition, pending, context } = started
    let url: string
    try {
      url = await authorizationUrl(ctx, definition, context, pending)
    } catch (error) {
      return ctx.response.redirect(this.oauth.startFailed(provider, error))
    }
    await writeStateCookie(ctx, provider, pending)
    return ctx.response.redirect(url)
  }

  /**
   * GET /api/oauth/callback/:provider: signs in, signs up or links, then 302
   * (see the service); 403 for a name that cannot be a provider id.
   */
  async callback(ctx: HttpContext) {
    const provider = providerOf(ctx)
    const pending = takeStateCookie(ctx, provider)
    await ctx.auth.check()
    const outcome = await this.oauth.callback({
      provider,
      query: ctx.request.qs(),
      pending,
      user: ctx.auth.user ?? null,
      readUser: (definition, context, checked) => providerUser(ctx, definition, context, checked),
    })
    switch (outcome.kind) {
      case 'session':
        await this.devices.signedIn(outcome.user, signInDeviceOf(ctx))
        await ctx.auth.use('pingvin').login(outcome.user, { oauthIdToken: outcome.oauthIdToken })
        await rememberDevice(ctx, outcome.user.id)
        // Signed in: the upload page, as after the sign-in form; the TOTP page goes there too.
        return ctx.response.redirect(LANDING_PATH)
      case 'totp':
        return ctx.response.redirect(`/auth/totp/${encodeURIComponent(outcome.loginToken)}`)
      case 'linked':
        return ctx.response.redirect('/account')
      case 'error':
        return ctx.response.redirect(errorPageUrl(outcome.code, outcome.redirect, provider))
    }
  }

  /** POST /api/oauth/unlink/:provider: 201; 400 `not_linked`. */
  async unlink(ctx: HttpContext) {
    await this.oauth.unlink(ctx.auth.getUserOrFail(), String(ctx.params.provider))
    return ctx.response.created()
  }
}
