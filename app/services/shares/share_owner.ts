/**
 * Who owns a share: its creator, an admin, or, for a visitor's share (no
 * creator), the browser that created it. That browser holds the HttpOnly
 * ownership cookie `tern_share_owner` (a random token, read and written by
 * the shares controllers); the share stores only its SHA-256 digest
 * (`shares.owner_token_hash`). SharePolicy decides with `ownsShare`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type Share from '#models/share'
import type User from '#models/user'

/** Name of the ownership cookie of visitors' shares (not `share_<id>_token`-shaped on purpose). */
export const OWNER_COOKIE = 'tern_share_owner'

/** Lifetime of the ownership cookie: 400 days, the longest browsers keep a cookie. */
export const OWNER_COOKIE_MAX_AGE = 400 * 24 * 60 * 60

/** SHA-256 hex digest of an ownership token. */
export function hashOwnerToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A new random ownership token (43 base64url characters). */
export function newOwnerToken(): string {
  return randomBytes(32).toString('base64url')
}

/** True when `token` has the shape of an ownership token (anything else is ignored). */
export function isOwnerToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{32,128}$/.test(token)
}

function sameDigest(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)]
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * True when the caller owns the share: an admin, the creator, or, for a
 * visitor's share, the browser whose ownership-token digest is `ownerTokenHash`.
 */
export function ownsShare(share: Share, user: User | null, ownerTokenHash: string | null): boolean {
  if (user?.isAdmin) return true
  if (share.creatorId) return user?.id === share.creatorId
  return Boolean(
    share.ownerTokenHash && ownerTokenHash && sameDigest(share.ownerTokenHash, ownerTokenHash)
  )
}

/**
 * Who `user` deletes `share` as (the `by` of `share.delete`): an admin
 * deleting someone else's share (or a visitor's) is `admin`; anyone else
 * allowed to delete it is its owner.
 */
export function deleterOf(share: Share, user: User | null): 'owner' | 'admin' {
  return user?.isAdmin && share.creatorId !== user.id ? 'admin' : 'owner'
}
