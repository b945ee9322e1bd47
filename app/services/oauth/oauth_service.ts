/**
 * Social login (`/api/oauth/*`): the rules of the OAuth / OpenID Connect
 * flow. Providers come from plugins through the auth-provider extension
 * point as Ally drivers; their settings are read per request, so an admin
 * change applies at once. The controller moves cookies and redirects and
 * runs the driver (#controllers/oauth/ally_driver); this service checks the
 * state and maps the provider's user to a profile and an account.
 *
 * Callback semantics (those of Pingvin Share):
 * - signed in: LINK the provider account to the caller (`already_linked`
 *   when it belongs to someone else or the caller has another account of
 *   that provider), then `/account`;
 * - a linked account: SIGN IN as its user;
 * - otherwise, when `oauth.allowRegistration` is off: `no_user`; without an
 *   e-mail: `no_email`; with an unverified one: `unverified_account`; a user
 *   with that e-mail gets the account linked and is signed in; else a new
 *   user (no password, username derived from the provider's and made unique)
 *   is created and signed in (the first user becomes admin).
 * A TOTP user (unless `oauth.ignoreTotp`) gets a login token instead of a session.
 *
 * The redirect URI is built from the confirmed public address only
 * (`#services/links/link_base`): until an admin confirmed it, social sign-in
 * answers the error page with `app_url_unconfirmed`, since neither the
 * placeholder `http://localhost:3000` nor the request's Host header is an
 * address to send a provider's code to.
 */
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { authProviders, SocialLoginException } from '#extensions/auth/main'
import type {
  AllyUser,
  AuthProviderContext,
  AuthProviderDefinition,
  SocialLoginErrorCode,
  SocialProfile,
} from '#extensions/auth/main'
import { configValues } from '#extensions/config/config_values'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import LoginTokenService from '#services/auth/login_token_service'
import { confirmedAppUrl } from '#services/links/link_base'
import { configValue } from '#services/config/config_service'
import UserService from '#services/users/user_service'
import { notLinked, providerNotAvailable } from '#services/oauth/oauth_errors'
import {
  newPendingAuthorization,
  sameState,
  type PendingAuthorization,
} from '#services/oauth/oauth_state'
import { deriveUsername } from '#services/oauth/username'

/** Where the error page sends the user back to. */
const SIGN_IN_PATH = '/auth/signIn'
const ACCOUNT_PATH = '/account'

/** The result of a callback, for the controller to turn into a redirect. */
export type CallbackOutcome =
  | { kind: 'session'; user: User; oauthIdToken: string | null }
  | { kind: 'totp'; loginToken: string }
  | { kind: 'linked' }
  | { kind: 'error'; code: SocialLoginErrorCode; redirect: string }

/** What the callback route received. */
export interface CallbackInput {
  provider: string
  /** The query string of the provider's redirect (`code`, `state`, or `error`). */
  query: Record<string, unknown>
  /** The state cookie's content, null when missing (expired). */
  pending: PendingAuthorization | null
  /** The signed-in caller (link mode), or null. */
  user: User | null
  /**
   * Reads the account at the provider through its Ally driver (the caller
   * holds the request): called once `pending` (the state cookie) was checked
   * against the provider's answer.
   */
  readUser: (
    definition: AuthProviderDefinition,
    context: AuthProviderContext,
    pending: PendingAuthorization
  ) => Promise<AllyUser>
}

/** What a started sign-in needs: the provider, the values of the state cookie, the driver's context. */
export interface StartedSignIn {
  definition: AuthProviderDefinition
  pending: PendingAuthorization
  context: AuthProviderContext
}

/** A trimmed non-empty string, else undefined. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/**
 * The profile of Ally's `user`: the definition's own mapping, else `id`,
 * `nickName || name`, `email`, `emailVerificationState === 'verified'`. The
 * ID token (`token.idToken`) is kept only for providers that can sign out.
 */
export async function profileOf(
  definition: AuthProviderDefinition,
  user: AllyUser,
  context: AuthProviderContext
): Promise<SocialProfile> {
  const profile: SocialProfile = definition.profile
    ? await definition.profile(user, context)
    : {
        id: user.id === undefined || user.id === null ? '' : String(user.id),
        username:
          text(user.nickName) ??
          text(user.name) ??
          text(user.email)?.split('@')[0] ??
          String(user.id ?? ''),
        email: text(user.email) ?? null,
        emailVerified: user.emailVerificationState === 'verified',
      }
  const idToken = (user.token as { idToken?: unknown } | undefined)?.idToken
  return {
    ...profile,
    idToken: !definition.signOutUrl
      ? null
      : profile.idToken !== undefined
        ? profile.idToken
        : typeof idToken === 'string'
          ? idToken
          : null,
  }
}

/** `/error?error=<code>&redirect=<path>&params=<provider>`. */
export function errorPageUrl(
  code: SocialLoginErrorCode,
  redirect: string,
  provider: string
): string {
  const query = new URLSearchParams({ error: code, redirect, params: provider })
  return `/error?${query.toString()}`
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class OauthService {
  constructor(
    protected users: UserService,
    protected loginTokens: LoginTokenService
  ) {}

  /**
   * Ids of the social-login providers a visitor may use now: registered by an
   * enabled plugin and switched on by their `enabledKey` config variable.
   * Settings are read at call time (one query), so an admin change applies at once.
   */
  async availableProviders(): Promise<string[]> {
    const providers = authProviders.list()
    if (providers.length === 0) return []
    const enabled = await configValues.getMany(providers.map((provider) => provider.enabledKey))
    return providers
      .filter((provider) => enabled[provider.enabledKey] === true)
      .map((provider) => provider.id)
  }

  /** The provider `id` when it is registered AND switched on now, else null. */
  async enabledProvider(id: string): Promise<AuthProviderDefinition | null> {
    if (!authProviders.has(id)) return null
    const definition = authProviders.get(id)
    return (await configValues.get(definition.enabledKey)) === true ? definition : null
  }

  /**
   * The redirect URI registered at the providers: `${appUrl}/api/oauth/callback/<id>`
   * on the confirmed public address; `app_url_unconfirmed` while there is none.
   */
  async callbackUrl(id: string): Promise<string> {
    const base = await confirmedAppUrl()
    if (base === null) throw new SocialLoginException('app_url_unconfirmed')
    return `${base}/api/oauth/callback/${id}`
  }

  /** The context of the driver of `definition`: its current settings (read now), callback URL and `nonce`. */
  async providerContext(
    definition: AuthProviderDefinition,
    nonce: string
  ): Promise<AuthProviderContext> {
    const keys = [...new Set([definition.enabledKey, ...definition.configKeys])]
    const config = await configValues.getMany(keys)
    return { config, callbackUrl: await this.callbackUrl(definition.id), nonce }
  }

  /**
   * Starts a sign-in: the provider, new values for the state cookie and the
   * driver's context. 403 when the provider is unknown or switched off;
   * `SocialLoginException('app_url_unconfirmed')` while the public address
   * is not confirmed (the controller shows the error page, see `startFailed`).
   */
  async start(id: string): Promise<StartedSignIn> {
    const definition = await this.enabledProvider(id)
    if (!definition) throw providerNotAvailable()
    const pending = newPendingAuthorization()
    return { definition, pending, context: await this.providerContext(definition, pending.nonce) }
  }

  /** The error page a sign-in that could not start (provider unreachable or misconfigured) goes to; logs why. */
  startFailed(id: string, error: unknown): string {
    const code = error instanceof SocialLoginException ? error.errorCode : 'default'
    if (code === 'app_url_unconfirmed') {
      logger.warn(
        { provider: id },
        'social login refused: the public address (general.appUrl) is not confirmed yet; an admin confirms it in the admin panel'
      )
    } else {
      logger.error({ err: error, provider: id }, 'social login could not start')
    }
    return errorPageUrl(code, SIGN_IN_PATH, id)
  }

  /** Runs a callback; every failure becomes an `error` outcome with its page code. */
  async callback(input: CallbackInput): Promise<CallbackOutcome> {
    const redirect = input.user ? ACCOUNT_PATH : SIGN_IN_PATH
    try {
      return await this.#callback(input)
    } catch (error) {
      if (error instanceof SocialLoginException) {
        // Expected outcomes (cancelled, no e-mail...) are info; the cause helps admins with wrong settings.
        logger.info(
          { provider: input.provider, code: error.errorCode, err: error.cause },
          error.message
        )
        return { kind: 'error', code: error.errorCode, redirect }
      }
      logger.error({ err: error, provider: input.provider }, 'social login failed')
      return { kind: 'error', code: 'default', redirect }
    }
  }

  async #callback({
    provider,
    query,
    pending,
    user,
    readUser,
  }: CallbackInput): Promise<CallbackOutcome> {
    const definition = await this.enabledProvider(provider)
    if (!definition) throw new SocialLoginException('user_not_allowed')
    if (typeof query.error === 'string') {
      throw new SocialLoginException(query.error === 'access_denied' ? 'access_denied' : 'default')
    }
    if (!pending) throw new SocialLoginException('expired_token')
    if (!sameState(pending.state, query.state)) throw new SocialLoginException('invalid_token')
    if (typeof query.code !== 'string' || query.code.length === 0)
      throw new SocialLoginException('invalid_token')

    const context = await this.providerContext(definition, pending.nonce)
    const profile = await profileOf(
      definition,
      await readUser(definition, context, pending),
      context
    )
    if (!profile.id) throw new SocialLoginException('cannot_get_user_info')

    if (user) {
      await this.link(user, provider, profile)
      return { kind: 'linked' }
    }
    const account = await SocialAccount.query()
      .where('provider', provider)
      .where('providerUserId', profile.id)
      .first()
    const owner = account
      ? await User.find(account.userId)
      : await this.#signUpOrMatch(provider, profile)
    if (!owner) throw new SocialLoginException('no_user')
    if (account && account.providerUsername !== profile.username && profile.username) {
      account.providerUsername = profile.username
      await account.save()
    }
    return this.#signIn(owner, profile.idToken ?? null)
  }

  /** The user a new provider account signs in as: one with the same e-mail (linked now) or a new one. */
  async #signUpOrMatch(provider: string, profile: SocialProfile): Promise<User> {
    if (!(await configValue('oauth.allowRegistration'))) throw new SocialLoginException('no_user')
    if (!profile.email) throw new SocialLoginException('no_email')
    if (!profile.emailVerified) throw new SocialLoginException('unverified_account')
    const existing = await this.users.findByEmail(profile.email)
    if (existing) {
      await this.#createLink(existing, provider, profile)
      return existing
    }
    const username = await deriveUsername(
      profile.username || profile.email.split('@')[0],
      async (name) => (await this.users.findByUsername(name)) !== null
    )
    const user = await this.users.create({
      username,
      email: profile.email,
      password: null,
      isAdmin: !(await this.users.hasUsers()),
    })
    await this.#createLink(user, provider, profile)
    return user
  }

  async #signIn(user: User, idToken: string | null): Promise<CallbackOutcome> {
    if (user.totpVerified && !(await configValue('oauth.ignoreTotp'))) {
      return {
        kind: 'totp',
        loginToken: await this.loginTokens.issue(user, { oauthIdToken: idToken }),
      }
    }
    return { kind: 'session', user, oauthIdToken: idToken }
  }

  /**
   * Links `profile` to `user`. `already_linked` when that provider account
   * belongs to another user, or `user` has another account of `provider`.
   * Linking the same account again is a no-op.
   */
  async link(user: User, provider: string, profile: SocialProfile): Promise<void> {
    const byAccount = await SocialAccount.query()
      .where('provider', provider)
      .where('providerUserId', profile.id)
      .first()
    if (byAccount) {
      if (byAccount.userId !== user.id) throw new SocialLoginException('already_linked')
      return
    }
    const byUser = await SocialAccount.query()
      .where('provider', provider)
      .where('userId', user.id)
      .first()
    if (byUser) throw new SocialLoginException('already_linked')
    await this.#createLink(user, provider, profile)
  }

  async #createLink(user: User, provider: string, profile: SocialProfile): Promise<void> {
    try {
      await SocialAccount.create({
        userId: user.id,
        provider,
        providerUserId: profile.id,
        providerUsername: profile.username || profile.email || profile.id,
      })
    } catch (error) {
      // A concurrent link of the same account lost on the unique index.
      const again = await SocialAccount.query()
        .where('provider', provider)
        .where('providerUserId', profile.id)
        .first()
      if (again) throw new SocialLoginException('already_linked', undefined, { cause: error })
      throw error
    }
  }

  /** The caller's linked provider accounts, by provider id. */
  linkedAccounts(user: User): Promise<SocialAccount[]> {
    return SocialAccount.query().where('userId', user.id).orderBy('provider', 'asc')
  }

  /** Removes the caller's link to `provider`. 400 `not_linked` when there is none. */
  async unlink(user: User, provider: string): Promise<void> {
    const deleted = await SocialAccount.query()
      .where('userId', user.id)
      .where('provider', provider)
      .delete()
    const count = Number(Array.isArray(deleted) ? deleted[0] : deleted)
    if (!count) throw notLinked()
  }

  /**
   * The provider's end-session URL for a session that came from a social
   * sign-in with an ID token, asked of every enabled provider with a
   * `signOutUrl` hook (it answers one only when its settings say so). Null otherwise.
   */
  async signOutUrl(idToken: string): Promise<string | null> {
    // No confirmed address (an admin reset it since): no address to come back to either.
    const base = await confirmedAppUrl()
    if (base === null) return null
    for (const definition of authProviders.list()) {
      if (!definition.signOutUrl || !(await this.enabledProvider(definition.id))) continue
      const url = await definition.signOutUrl(
        await this.providerContext(definition, ''),
        idToken,
        base
      )
      if (url) return url
    }
    return null
  }
}
