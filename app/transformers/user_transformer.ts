import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'
import type { PublicUser } from '#api/user'

export type { PublicUser }

/**
 * Turns a `User` into the public user object. Use `UserTransformer.toJSON(user)`
 * for a plain object (what the API answers), or the transformer API
 * (`UserTransformer.transform(user)`).
 */
export default class UserTransformer extends BaseTransformer<User> {
  /** The public user object. */
  toObject(): PublicUser {
    return {
      id: this.resource.id,
      username: this.resource.username,
      email: this.resource.email,
      isAdmin: Boolean(this.resource.isAdmin),
      totpVerified: Boolean(this.resource.totpVerified),
      hasPassword: Boolean(this.resource.password),
    }
  }

  /** Plain public user object for a response body. */
  static toJSON(user: User): PublicUser {
    return new UserTransformer(user).toObject()
  }
}
