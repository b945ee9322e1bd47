/**
 * The reverse-share objects of the reverse-shares API (`/api/reverseShares*`) and of the upload
 * page: created `{token, link}`, public (what a token holder may learn) and
 * the owner's view with its completed shares. Links need the instance's
 * `general.appUrl` (`ReverseShareService.appUrl()`), passed in.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type ReverseShare from '#models/reverse_share'
import { serializeExpiration } from '#services/shares/expiration'
import ShareTransformer from '#transformers/share_transformer'
import type {
  CreatedReverseShare,
  PublicReverseShare,
  ReverseShare as ReverseShareObject,
} from '#api/reverse_share'

export type { CreatedReverseShare, PublicReverseShare, ReverseShareObject }

/**
 * Turns a `ReverseShare` into the API's objects: `toObject` is the owner's
 * view (needs `shares` preloaded, as `ReverseShareService.listOf` does),
 * `toCreated` and `toPublic` the others. The static `*JSON` helpers return
 * plain objects for a response body.
 */
export default class ReverseShareTransformer extends BaseTransformer<ReverseShare> {
  /**
   * @param resource the reverse share
   * @param appUrl `general.appUrl` without a trailing slash (upload links); unused by `toPublic`
   */
  constructor(
    resource: ReverseShare,
    protected appUrl: string = ''
  ) {
    super(resource)
  }

  /** `${appUrl}/upload/<token>`: the link uploaders open. */
  link(): string {
    return `${this.appUrl}/upload/${encodeURIComponent(this.resource.token)}`
  }

  /** The owner's view, with the completed shares made through it ("my share" objects). */
  toObject(): ReverseShareObject {
    return {
      id: this.resource.id,
      token: this.resource.token,
      link: this.link(),
      shareExpiration: serializeExpiration(this.resource.shareExpiration),
      maxShareSize: String(this.resource.maxShareSize),
      remainingUses: this.resource.remainingUses,
      sendEmailNotification: this.resource.sendEmailNotification,
      simplified: this.resource.simplified,
      publicAccess: this.resource.publicAccess,
      shares: (this.resource.shares ?? []).map((share) => ShareTransformer.toMyShareJSON(share)),
    }
  }

  /** Exactly `{token, link}` of a new reverse share. */
  toCreated(): CreatedReverseShare {
    return { token: this.resource.token, link: this.link() }
  }

  /** What anyone holding the token may learn (`GET /api/reverseShares/:token`, the upload page). */
  toPublic(): PublicReverseShare {
    return {
      id: this.resource.id,
      maxShareSize: String(this.resource.maxShareSize),
      shareExpiration: serializeExpiration(this.resource.shareExpiration),
      token: this.resource.token,
      simplified: this.resource.simplified,
    }
  }

  /** Plain owner's view for a response body. */
  static toJSON(reverseShare: ReverseShare, appUrl: string): ReverseShareObject {
    return new ReverseShareTransformer(reverseShare, appUrl).toObject()
  }

  /** Plain `{token, link}`. */
  static toCreatedJSON(reverseShare: ReverseShare, appUrl: string): CreatedReverseShare {
    return new ReverseShareTransformer(reverseShare, appUrl).toCreated()
  }

  /** Plain public object. */
  static toPublicJSON(reverseShare: ReverseShare): PublicReverseShare {
    return new ReverseShareTransformer(reverseShare).toPublic()
  }
}
