/**
 * Reverse shares (spec/api.md §5): links through which others upload shares
 * for their creator. Create, look up by token, list, delete, and count a use
 * when a share made through one is completed. Callers have checked who may
 * call; this module applies the rules.
 *
 * ```ts
 * const reverseShare = await createReverseShare(user, input)       // 400s of the contract
 * const live = await findLiveReverseShareOrFail(token)              // 404 "Reverse share token not found"
 * const mine = await reverseSharesOf(user)                          // with their completed shares
 * await deleteReverseShare(await findOwnedReverseShareOrFail(user, id))
 * ```
 */
import { randomBytes } from 'node:crypto'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import type User from '#models/user'
import { appUrl } from '#services/auth/password_reset_service'
import { configService } from '#services/config/config_service'
import { affectedRows, dbNow } from '#services/files/upload_sessions'
import { REVERSE_SHARE_TOKEN_PATTERN } from '#services/reverse_shares/reverse_share_cookie'
import { reverseShareErrors } from '#services/reverse_shares/reverse_share_errors'
import { resolveExpiration } from '#services/shares/expiration'
import { deleteShare } from '#services/shares/share_service'

/** The validated body of `POST /api/reverseShares`. */
export interface CreateReverseShareInput {
  /** `"<n>-<unit>"` or `"never"`, capped by `share.maxExpiration` like shares. */
  shareExpiration: string
  /** Decimal string of bytes, at least 1, at most `share.maxSize`. */
  maxShareSize: string
  /** How many shares may be completed through it; null or absent = no limit. */
  maxUseCount?: number | null
  /** Mail the creator when a share was completed through it (default false). */
  sendEmailNotification?: boolean
  /** The upload page shows only the files and the result (default false). */
  simplified?: boolean
  /** False: its shares are visible only to the creator (default true). */
  publicAccess?: boolean
}

/** The reason `share:deleted` carries for shares deleted with their reverse share. */
export const DELETED_WITH_REVERSE_SHARE = 'Reverse share deleted'

type ReverseShareQuery = ModelQueryBuilderContract<typeof ReverseShare>

/** Restricts a query to reverse shares that have not expired. */
function notExpired(query: ReverseShareQuery): ReverseShareQuery {
  return query.where((inner) => inner.whereNull('share_expiration').orWhere('share_expiration', '>', dbNow()))
}

/** The upload link of a token: `${general.appUrl}/upload/<token>`. */
export async function reverseShareLink(token: string): Promise<string> {
  return `${await appUrl()}/upload/${encodeURIComponent(token)}`
}

/**
 * Creates a reverse share for `user`. Throws 400 "Expiration date exceeds
 * maximum expiration date" (over `share.maxExpiration`, or "never" while a
 * maximum is set) and 400 "Max share size can't be greater than <n> bytes."
 * (over `share.maxSize`).
 */
export async function createReverseShare(user: User, input: CreateReverseShareInput): Promise<ReverseShare> {
  const shareExpiration = await resolveExpiration(input.shareExpiration)
  const limit = await configService.get('share.maxSize')
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

/**
 * The live reverse share of `token` (known, not expired, uses left), or null.
 * Never throws for a malformed token.
 */
export async function findLiveReverseShare(token: string): Promise<ReverseShare | null> {
  if (!REVERSE_SHARE_TOKEN_PATTERN.test(token)) return null
  return notExpired(ReverseShare.query().where('token', token))
    .where((inner) => inner.whereNull('remaining_uses').orWhere('remaining_uses', '>', 0))
    .first()
}

/** `findLiveReverseShare` or 404 "Reverse share token not found" (unknown, expired, used up). */
export async function findLiveReverseShareOrFail(token: string): Promise<ReverseShare> {
  const reverseShare = await findLiveReverseShare(token)
  if (!reverseShare) throw reverseShareErrors.tokenNotFound()
  return reverseShare
}

/**
 * The unexpired reverse shares of `user` (used-up ones included: their
 * shares stay visible), newest first, each with its completed shares
 * (files, security and recipients preloaded, for the "my share" object).
 */
export async function reverseSharesOf(user: User): Promise<ReverseShare[]> {
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
 * The reverse share `id` when `user` may manage it (its creator, or an
 * admin); 404 "Reverse share not found" otherwise, so its existence does not
 * leak.
 */
export async function findOwnedReverseShareOrFail(user: User, id: string): Promise<ReverseShare> {
  const reverseShare = await ReverseShare.find(id)
  if (!reverseShare || (reverseShare.creatorId !== user.id && !user.isAdmin)) {
    throw reverseShareErrors.notFound()
  }
  return reverseShare
}

/**
 * Deletes a reverse share with every share made through it: each share goes
 * the way of `deleteShare` (stored files first, `share:deleted` emitted with
 * `DELETED_WITH_REVERSE_SHARE`), then the reverse share's row.
 */
export async function deleteReverseShare(reverseShare: ReverseShare): Promise<void> {
  const shares = await Share.query().where('reverse_share_id', reverseShare.id)
  for (const share of shares) await deleteShare(share, DELETED_WITH_REVERSE_SHARE)
  await ReverseShare.query().where('id', reverseShare.id).delete()
}

/**
 * Counts one use of the reverse share `reverseShareId`, atomically: a single
 * conditional UPDATE decrements `remaining_uses` only while it is above 0
 * (or null = unlimited, which stays null) and the reverse share has not
 * expired. Of concurrent callers racing for the last use exactly one gets
 * `true`; the others (and calls on an expired or deleted reverse share) get
 * `false`.
 */
export async function consumeReverseShareUse(reverseShareId: string): Promise<boolean> {
  const now = dbNow()
  const result = await db
    .from(ReverseShare.table)
    .where('id', reverseShareId)
    .where((query) => query.whereNull('remaining_uses').orWhere('remaining_uses', '>', 0))
    .where((query) => query.whereNull('share_expiration').orWhere('share_expiration', '>', now))
    .update({ remaining_uses: db.raw('remaining_uses - 1'), updated_at: now })
  return affectedRows(result) > 0
}
