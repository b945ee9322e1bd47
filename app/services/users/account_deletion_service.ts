/**
 * Deleting one's own account (`DELETE /api/users/me`): the confirmation Tern's
 * account page sends, checked, then the deletion (#services/users/user_service).
 * A body-less request is Pingvin's form (Pingvin's route takes no body; its
 * web client deletes that way after its own confirm dialog) and is accepted as
 * it is: refusing it would break Pingvin clients, which an extension must not do.
 */
import { inject } from '@adonisjs/core'
import type User from '#models/user'
import UserService from '#services/users/user_service'
import RateLimiter from '#services/auth/rate_limiter'
import { verifyUserPassword } from '#services/auth/password_hashes'
import { BadRequestException, ForbiddenException } from '#services/auth/auth_errors'

/** 400 when a password account confirms with something else than its password. */
export const PASSWORD_REQUIRED_MESSAGE = 'Enter your password to delete your account'
/** 400 when a social-only account confirms with something else than its username. */
export const USERNAME_REQUIRED_MESSAGE = 'Enter your username to delete your account'
/** 403 when the typed username is not the account's. */
export const USERNAME_MISMATCH_MESSAGE = 'The username does not match'

/** What the caller confirmed with (the body of the request). */
export interface DeletionConfirmation {
  password?: string
  username?: string
}

/** Failed confirmations count against the limit of password checks of signed-in users. */
const ACTION = 'accountSecurity'

/** See the module comment. */
@inject()
export default class AccountDeletionService {
  constructor(
    protected users: UserService,
    protected rateLimiter: RateLimiter
  ) {}

  /**
   * Deletes `user` and their shares. When the caller sends a confirmation
   * (Tern's account page always does), it must be the current password when
   * the account has one (400 for a username instead, 403 "Invalid password"
   * when wrong), else the username (400 / 403). Wrong confirmations are rate
   * limited per user and IP (429). No confirmation at all: Pingvin's form, see
   * the module comment. 400 "Cannot delete the last admin user" as before.
   */
  async deleteOwn(user: User, confirmation: DeletionConfirmation, context: { ip: string }) {
    if (confirmation.password !== undefined || confirmation.username !== undefined) {
      await this.#confirm(user, confirmation, context.ip)
    }
    await this.users.delete(user)
  }

  async #confirm(user: User, confirmation: DeletionConfirmation, ip: string) {
    if (user.password) {
      if (!confirmation.password) throw new BadRequestException(PASSWORD_REQUIRED_MESSAGE)
    } else if (!confirmation.username) {
      throw new BadRequestException(USERNAME_REQUIRED_MESSAGE)
    }
    // The attempt is counted before the secret is checked (see rate_limiter).
    const attempt = await this.rateLimiter.attempt(ACTION, ip, user.id)
    if (user.password) {
      if (!(await verifyUserPassword(user, confirmation.password!)))
        throw new ForbiddenException('Invalid password')
    } else if (confirmation.username!.toLowerCase() !== user.username.toLowerCase()) {
      throw new ForbiddenException(USERNAME_MISMATCH_MESSAGE)
    }
    await attempt.succeeded()
  }
}
