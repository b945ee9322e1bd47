/**
 * Seams the reverse shares (issue 5) plug into. Each member has a neutral
 * default (no reverse share) and is meant to be replaced by the reverse-share
 * service at boot, e.g.
 *
 * ```ts
 * shareSeams.reverseShareForCreation = async (ctx) => reverseShares.fromRequest(ctx)
 * ```
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { DateTime } from 'luxon'
import type Share from '#models/share'
import type User from '#models/user'

/** A reverse share a new share is created through. */
export interface ReverseShareForCreation {
  id: string
  /** The expiry every share of it takes (null = never). */
  shareExpiration: DateTime | null
}

/** The replaceable seams of the share lifecycle. */
export interface ShareSeams {
  /**
   * The reverse share a `POST /api/shares` comes through (the
   * `reverse_share_token` cookie), null when none. A valid one lets a visitor
   * create a share even when unauthenticated shares are off; it should throw
   * (404 "Reverse share token not found") for an invalid token.
   */
  reverseShareForCreation(ctx: HttpContext): Promise<ReverseShareForCreation | null>
  /**
   * After `POST /api/shares` stored `share` (before the 201 goes out): the
   * reverse shares clear the `reverse_share_token` cookie the share was
   * created through, so it never leaks into a later upload.
   */
  afterCreated(ctx: HttpContext, share: Share): Promise<void>
  /** A size cap lower than `share.maxSize` for uploads to `share` (the reverse share's `maxShareSize`), or null. */
  maxShareSize(share: Share): Promise<number | null>
  /**
   * After a share was completed (it is already marked completed): recipient
   * mails, reverse-share use counting and owner notification. Returns extra
   * keys of the completed reply (`notifyReverseShareCreator` for shares of a
   * reverse share).
   */
  afterCompleted(share: Share): Promise<{ notifyReverseShareCreator?: boolean }>
  /** True when `user` may not see `share` (403 `private_share`: non-public reverse shares). */
  isPrivateFor(share: Share, user: User | null): Promise<boolean>
}

/**
 * The seams in use. Defaults: no reverse shares, no mails; the reverse
 * shares install theirs at boot (`installReverseShareSeams`, Tern's provider).
 */
export const shareSeams: ShareSeams = {
  reverseShareForCreation: async () => null,
  afterCreated: async () => {},
  maxShareSize: async () => null,
  afterCompleted: async () => ({}),
  isPrivateFor: async () => false,
}
