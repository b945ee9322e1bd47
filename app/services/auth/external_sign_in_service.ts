/**
 * Sign-in through the password verifiers of plugins (LDAP, see
 * `#extensions/auth/password_verifiers`): asks each enabled verifier, then
 * maps the identity it vouches for to a Tern account.
 *
 * Account rules (Pingvin Share's, keyed on the link instead of `User.ldapDN`):
 * - the user linked in `social_accounts(provider = verifier id, provider_user_id = identity id)`;
 * - else a user whose username AND e-mail are the identity's (ignoring case) and
 *   who has no link of that verifier yet: linked now;
 * - else a new user: the login name as username, the directory's e-mail or
 *   `<uuid>@<verifier id>.local`, a random local password; admin when the
 *   directory says so, or when it is the instance's first account.
 *   A username or e-mail taken by another account is a 400 naming it.
 * At every sign-in the admin flag (when the directory manages it) and the
 * e-mail are applied again. The last admin is never demoted this way, and an
 * e-mail taken by another account is left as it was (both logged).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import {
  passwordVerifiers,
  type PasswordVerifier,
  type VerifiedIdentity,
} from '#extensions/auth/password_verifiers'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { BadRequestException, ServiceUnavailableException } from '#services/auth/auth_errors'
import UserService from '#services/users/user_service'

/** Message of the 503 when a directory could not answer and nothing else signed the user in. */
export const DIRECTORY_UNAVAILABLE_MESSAGE =
  'The sign-in directory cannot be reached. Please try again later.'

/** Longest username Tern stores (the column's size). */
const MAX_USERNAME_LENGTH = 32

/** Whether the error is a coded "directory unavailable" failure. */
function isUnavailable(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'E_PASSWORD_VERIFIER_UNAVAILABLE'
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class ExternalSignInService {
  constructor(protected users: UserService) {}

  /** Whether any verifier is switched on now (sign-in by password then stays possible under `oauth.disablePassword`). */
  async anyEnabled(): Promise<boolean> {
    const enabled = await passwordVerifiers.enabled()
    return enabled.length > 0
  }

  /**
   * The account `login`/`password` signs in as through an enabled verifier,
   * or null (unknown login, wrong password, no verifier on). 503 when a
   * directory could not answer and no other verifier vouched for the login.
   */
  async signIn(login: string, password: string): Promise<User | null> {
    if (login === '' || password === '') return null
    let unavailable = false
    for (const verifier of await passwordVerifiers.enabled()) {
      let identity: VerifiedIdentity | null
      try {
        identity = await verifier.verify(login, password)
      } catch (error) {
        if (!isUnavailable(error)) throw error
        logger.error(
          { verifier: verifier.id, reason: (error as Error).message },
          'sign-in directory unavailable'
        )
        unavailable = true
        continue
      }
      if (identity) return this.accountFor(verifier, identity)
    }
    if (unavailable) throw new ServiceUnavailableException(DIRECTORY_UNAVAILABLE_MESSAGE)
    return null
  }

  /** The account of `identity` (linked, matched or created) with its admin flag and e-mail applied. */
  async accountFor(
    verifier: Pick<PasswordVerifier, 'id'>,
    identity: VerifiedIdentity
  ): Promise<User> {
    const link = await SocialAccount.query()
      .where('provider', verifier.id)
      .where('providerUserId', identity.id)
      .first()
    const linked = link ? await User.find(link.userId) : null
    if (!linked) return this.#matchOrCreate(verifier.id, identity)
    await this.#sync(verifier.id, linked, identity)
    if (link && link.providerUsername !== identity.username) {
      link.providerUsername = identity.username
      await link.save()
    }
    return linked
  }

  async #matchOrCreate(provider: string, identity: VerifiedIdentity): Promise<User> {
    const username = identity.username.trim()
    if (username.length === 0 || username.length > MAX_USERNAME_LENGTH) {
      throw new BadRequestException(
        `The login name "${username}" cannot be a Tern username (1 to ${MAX_USERNAME_LENGTH} characters)`
      )
    }
    const sameName = await this.users.findByUsername(username)
    if (sameName) {
      const sameEmail =
        identity.email !== null &&
        sameName.email.toLowerCase() === identity.email.trim().toLowerCase()
      const otherLink = await SocialAccount.query()
        .where('provider', provider)
        .where('userId', sameName.id)
        .first()
      if (!sameEmail || otherLink) {
        throw new BadRequestException(
          `A user with the username "${username}" already exists and is not linked to this ${provider.toUpperCase()} account; an administrator must rename that user first`
        )
      }
      await this.#link(provider, sameName, identity)
      await this.#sync(provider, sameName, identity)
      return sameName
    }
    const email = identity.email?.trim() || `${randomUUID()}@${provider}.local`
    if (await this.users.findByEmail(email)) {
      throw new BadRequestException(
        `A user with the email "${email}" already exists and is not linked to this ${provider.toUpperCase()} account`
      )
    }
    const user = await this.users.create({
      username,
      email,
      // Random, as Pingvin Share did: nobody knows it, so the password can only be changed with the
      // old one and access ends when the directory removes the account (a null password could be set).
      password: randomBytes(32).toString('base64url'),
      // The first account of the instance is an admin, as at sign-up.
      isAdmin: (identity.isAdmin ?? false) || !(await this.users.hasUsers()),
    })
    try {
      await this.#link(provider, user, identity)
    } catch (error) {
      // A concurrent first sign-in of the same entry linked another account: keep that one.
      await user.delete()
      throw error
    }
    logger.info({ provider, userId: user.id }, 'account created at its first directory sign-in')
    return user
  }

  async #link(provider: string, user: User, identity: VerifiedIdentity): Promise<void> {
    await SocialAccount.create({
      userId: user.id,
      provider,
      providerUserId: identity.id,
      providerUsername: identity.username,
    })
  }

  /** Applies the directory's admin flag and e-mail to `user` (see the module comment). */
  async #sync(provider: string, user: User, identity: VerifiedIdentity): Promise<void> {
    if (identity.isAdmin !== undefined && identity.isAdmin !== user.isAdmin) {
      if (!identity.isAdmin && (await this.users.isLastAdmin(user))) {
        logger.warn(
          { provider, userId: user.id },
          'directory sign-in: the last admin keeps the admin flag'
        )
      } else {
        user.isAdmin = identity.isAdmin
      }
    }
    const email = identity.email?.trim()
    if (email && email.toLowerCase() !== user.email.toLowerCase()) {
      const other = await this.users.findByEmail(email)
      if (other && other.id !== user.id) {
        logger.warn(
          { provider, userId: user.id },
          'directory sign-in: the e-mail belongs to another account, kept the old one'
        )
      } else {
        user.email = email
      }
    }
    if (user.$isDirty) await user.save()
  }
}
