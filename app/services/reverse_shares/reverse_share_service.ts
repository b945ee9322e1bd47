/**
 * Reverse shares: links through which others upload shares
 * for their creator. Create, look up by token, list, delete, and keep count
 * of their uses. Callers have checked who may call (ReverseSharePolicy);
 * this service applies the rules. Plain data in and out: the
 * `reverse_share_token` cookie lives in
 * `#controllers/reverse_shares/reverse_share_cookie`.
 *
 * A use is taken when a share is created through the reverse share (in the
 * share's transaction, so a refused creation stores nothing), not when it is
 * completed: with one use left, a second uploader is refused before sending a
 * byte. A share removed before it was ever completed (expired, abandoned and
 * cleaned up, deleted) gives its use back; a completed share keeps it, even
 * once deleted. `remaining_uses` (the API's `remainingUses`) is therefore the
 * number of uploads that may still start: uploads in progress are not in it.
 * An uploader who starts again (an upload failed, the page was reloaded)
 * while its unfinished share holds a use gets that use for the new share
 * (`UseHolder`): the link stays open to them, the old share expires at once.
 *
 * ```ts
 * const reverseShares = await app.container.make(ReverseShareService)
 * const reverseShare = await reverseShares.create(user, input)       // 400s of the contract
 * const live = await reverseShares.findLiveOrFail(token)              // 404 "Reverse share token not found"
 * const mine = await reverseShares.listOf(user)                       // with their completed shares
 * await reverseShares.delete(reverseShare)
 * ```
 */
import { randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import type { Infer } from '@vinejs/vine/types'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import type User from '#models/user'
import { linkBase } from '#services/links/link_base'
import { configValue } from '#services/config/config_service'
import { affectedRows, dbNow } from '#services/files/upload_sessions'
import { reverseShareErrors } from '#services/reverse_shares/reverse_share_errors'
import { resolveExpiration } from '#services/shares/expiration'
import ShareService from '#services/shares/share_service'
import type { createReverseShareValidator } from '#validators/reverse_shares'

/** The validated body of `POST /api/reverseShares`. */
export type CreateReverseShareInput = Infer<typeof createReverseShareValidator>

/** The shape of reverse-share tokens (anything else is never looked up). */
export const REVERSE_SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

/** The reason `share:deleted` carries for shares deleted with their reverse share. */
export const DELETED_WITH_REVERSE_SHARE = 'Reverse share deleted'

type ReverseShareQuery = ModelQueryBuilderContract<typeof ReverseShare>

/**
 * Who may hold a use of a reverse share through an unfinished share of it:
 * the signed-in uploader, or a visitor's browser (the digest of its
 * ownership cookie, `#services/shares/share_owner`).
 */
export interface UseHolder {
  creatorId: string | null
  ownerTokenHash: string | null
}

/**
 * Restricts a query on `shares` to the unfinished shares of `holder` that
 * hold a use of their reverse share; false when the holder is nobody.
 */
function heldUses(query: DatabaseQueryBuilderContract, holder: UseHolder): boolean {
  if (!holder.creatorId && !holder.ownerTokenHash) return false
  query.where('shares.reverse_share_use_reserved', true).whereNull('shares.completed_at')
  if (holder.creatorId) query.where('shares.creator_id', holder.creatorId)
  else query.whereNull('shares.creator_id').where('shares.owner_token_hash', holder.ownerTokenHash!)
  return true
}

/** Restricts a query to reverse shares that have not expired. */
function notExpired(query: ReverseShareQuery): ReverseShareQuery {
  return query.where((inner) =>
    inner.whereNull('share_expiration').orWhere('share_expiration', '>', dbNow())
  )
}

/** The reverse shares' rules. */
@inject()
export default class ReverseShareService {
  constructor(private shares: ShareService) {}

  /**
   * The base of upload links (ReverseShareTransformer), without a trailing
   * slash: `#services/links/link_base`, with the origin the requester's
   * browser used (`#http/request_origin`).
   */
  async appUrl(requestOrigin: string | null): Promise<string> {
    return linkBase(requestOrigin)
  }

  /**
   * Creates a reverse share for `user`. Throws 400 "Expiration date exceeds
   * maximum expiration date" (over `share.maxExpiration`, or "never" while a
   * maximum is set) and 400 "Max share size can't be greater than <n> bytes."
   * (over `share.maxSize`).
   */
  async create(user: User, input: CreateReverseShareInput): Promise<ReverseShare> {
    const shareExpiration = await resolveExpiration(input.shareExpiration)
    const limit = await configValue('share.maxSize')
    const maxShareSize = Number(input.maxShareSize)
    if (!Number.isSafeInteger(maxShareSize) || maxShareSize > limit) {
      throw reverseShareErrors.maxShareSizeTooLarge(limit)
    }
    return ReverseShare.create({
      token: randomBytes(24).toString('base64url'),
      creatorId: user.id,
      shareExpiration,
      maxShareSize,
      remainingUses: input.maxUseCount ?? null,
      sendEmailNotification: input.sendEmailNotification ?? false,
      simplified: input.simplified ?? false,
      publicAccess: input.publicAccess ?? true,
    })
  }

  /** The reverse share `id` (expired or used up too), or null. */
  async find(id: string): Promise<ReverseShare | null> {
    return ReverseShare.find(id)
  }

  /** The reverse share `id`, or 404 "Reverse share not found". */
  async findOrFail(id: string): Promise<ReverseShare> {
    const reverseShare = await ReverseShare.find(id)
    if (!reverseShare) throw reverseShareErrors.notFound()
    return reverseShare
  }

  /**
   * The live reverse share of `token` (known, not expired, uses left, or a
   * use `holder` holds through an unfinished share of it), or null. Never
   * throws for a malformed token.
   */
  async findLive(token: string, holder?: UseHolder): Promise<ReverseShare | null> {
    if (!REVERSE_SHARE_TOKEN_PATTERN.test(token)) return null
    return notExpired(ReverseShare.query().where('token', token))
      .where((inner) => {
        inner.whereNull('remaining_uses').orWhere('remaining_uses', '>', 0)
        const held = db
          .from(Share.table)
          .select('shares.id')
          .whereColumn('shares.reverse_share_id', 'reverse_shares.id')
        if (holder && heldUses(held, holder)) inner.orWhereExists(held)
      })
      .first()
  }

  /** `findLive` or 404 "Reverse share token not found" (unknown, expired, used up). */
  async findLiveOrFail(token: string, holder?: UseHolder): Promise<ReverseShare> {
    const reverseShare = await this.findLive(token, holder)
    if (!reverseShare) throw reverseShareErrors.tokenNotFound()
    return reverseShare
  }

  /**
   * The unexpired reverse shares of `user` (used-up ones included: their
   * shares stay visible), newest first, each with its completed shares
   * (files, security and recipients preloaded, for the "my share" object).
   */
  async listOf(user: User): Promise<ReverseShare[]> {
    return notExpired(ReverseShare.query().where('creator_id', user.id))
      .preload('shares', (shares) =>
        shares
          .where('completed', true)
          .preload('files')
          .preload('security')
          .preload('recipients')
          .orderBy('created_at', 'desc')
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
  }

  /**
   * Deletes a reverse share with every share made through it: each share goes
   * the way of `ShareService.delete` (stored files first, `share:deleted` emitted with
   * `DELETED_WITH_REVERSE_SHARE`), then the reverse share's row.
   */
  async delete(reverseShare: ReverseShare): Promise<void> {
    const shares = await Share.query().where('reverse_share_id', reverseShare.id)
    // Only its owner (or an admin) deletes a reverse share: the owner's shares go with it.
    for (const share of shares) await this.shares.delete(share, DELETED_WITH_REVERSE_SHARE, 'owner')
    await ReverseShare.query().where('id', reverseShare.id).delete()
  }

  /**
   * Takes one use of the reverse share `reverseShareId`, atomically: a single
   * conditional UPDATE decrements `remaining_uses` only while it is above 0
   * (or null = unlimited, which stays null) and the reverse share has not
   * expired. The row stays locked until `client`'s transaction ends, so of
   * concurrent callers racing for the last use (on any number of instances)
   * exactly one gets `true`; the others (and calls on an expired or deleted
   * reverse share) get `false`. Without `client` it runs on its own.
   */
  async consumeUse(
    reverseShareId: string,
    client: QueryClientContract = db.connection()
  ): Promise<boolean> {
    const now = dbNow()
    const result = await client
      .from(ReverseShare.table)
      .where('id', reverseShareId)
      .where((query) => query.whereNull('remaining_uses').orWhere('remaining_uses', '>', 0))
      .where((query) => query.whereNull('share_expiration').orWhere('share_expiration', '>', now))
      .update({ remaining_uses: client.raw('remaining_uses - 1'), updated_at: now })
    return affectedRows(result) > 0
  }

  /**
   * Moves a use `holder` holds through an unfinished share of reverse share
   * `reverseShareId` to the share being created (in its transaction,
   * `client`): that older share loses its use and expires at once (the
   * upload that made it was given up; the cleanup job removes it, giving
   * nothing back). Conditional on the older share still holding the use, so
   * of two attempts at once only one moves it. False when the holder has no
   * such share or the reverse share expired.
   */
  async takeOverUse(
    reverseShareId: string,
    holder: UseHolder,
    client: TransactionClientContract
  ): Promise<boolean> {
    if (!(await this.isUnexpired(reverseShareId, client))) return false
    const candidates = client
      .from(Share.table)
      .select('id')
      .where('reverse_share_id', reverseShareId)
    if (!heldUses(candidates, holder)) return false
    for (const { id } of (await candidates.orderBy('created_at', 'asc')) as { id: string }[]) {
      const moved = await client
        .from(Share.table)
        .where('id', id)
        .where('reverse_share_use_reserved', true)
        .whereNull('completed_at')
        .update({ reverse_share_use_reserved: false, expiration: dbNow() })
      if (affectedRows(moved) > 0) return true
    }
    return false
  }

  /**
   * True when share `shareId` gave its use up to a newer share of its
   * uploader (`takeOverUse`): unfinished, holding no use, expired. A share
   * that never held one (made before uses were taken at creation) is not.
   */
  async wasGivenUp(shareId: string): Promise<boolean> {
    const given = await db
      .from(Share.table)
      .select('id')
      .where('id', shareId)
      .where('reverse_share_use_reserved', false)
      .whereNull('completed_at')
      .whereNotNull('expiration')
      .where('expiration', '<=', dbNow())
      .first()
    return Boolean(given)
  }

  /**
   * Gives back the use that share `shareId` took at its creation, when it
   * holds one and was never completed; a completed share's use stays spent.
   * Clearing the share's `reverse_share_use_reserved` is the condition of the
   * UPDATE, so two removals of one share give back one use. Call it in the
   * transaction that removes the share (`client`). Returns whether a use came back.
   */
  async releaseUse(
    shareId: string,
    reverseShareId: string,
    client: TransactionClientContract
  ): Promise<boolean> {
    const released = affectedRows(
      await client
        .from(Share.table)
        .where('id', shareId)
        .where('reverse_share_id', reverseShareId)
        .where('reverse_share_use_reserved', true)
        .whereNull('completed_at')
        .update({ reverse_share_use_reserved: false })
    )
    if (!released) return false
    await client
      .from(ReverseShare.table)
      .where('id', reverseShareId)
      .whereNotNull('remaining_uses')
      .update({ remaining_uses: client.raw('remaining_uses + 1'), updated_at: dbNow() })
    return true
  }

  /**
   * True when the reverse share `id` exists and has not expired (its uses
   * left do not matter); through `client` inside a transaction.
   */
  async isUnexpired(id: string, client?: QueryClientContract): Promise<boolean> {
    return (await notExpired(ReverseShare.query({ client }).where('id', id)).first()) !== null
  }
}
