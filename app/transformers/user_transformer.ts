import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'

/** The public user object of the API (spec/api.md §3). Never the hash, secrets or tokens. */
export interface PublicUser {
  id: string
  username: string
  email: string
  isAdmin: boolean
  totpVerified: boolean
  hasPassword: boolean
}

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
