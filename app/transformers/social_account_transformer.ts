/**
 * The linked social-login accounts of `GET /api/oauth/status`: one
 * `{provider, providerUsername}` per linked provider, keyed by provider id.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type SocialAccount from '#models/social_account'
import type { LinkedProvider, OauthStatus } from '#api/social_account'

export type { LinkedProvider, OauthStatus }

/** Turns a `SocialAccount` into the API's linked-provider object. */
export default class SocialAccountTransformer extends BaseTransformer<SocialAccount> {
  /** `{provider, providerUsername}`. */
  toObject(): LinkedProvider {
    return { provider: this.resource.provider, providerUsername: this.resource.providerUsername }
  }

  /** Plain linked-provider object for a response body. */
  static toJSON(account: SocialAccount): LinkedProvider {
    return new SocialAccountTransformer(account).toObject()
  }

  /** The status object: `accounts` keyed by provider id (in the given order). */
  static statusJSON(accounts: SocialAccount[]): OauthStatus {
    return Object.fromEntries(
      accounts.map((account) => [account.provider, SocialAccountTransformer.toJSON(account)])
    )
  }
}
