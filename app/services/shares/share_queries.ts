/**
 * Reading shares: the lookups of the routes (with the relations the
 * transformer needs) and the lists "my shares" and "all shares".
 */
import { inject } from '@adonisjs/core'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import type User from '#models/user'
import { dbNow } from '#services/files/upload_sessions'
import { isExpired } from '#services/shares/expiration'
import { shareErrors } from '#services/shares/share_errors'

/** What a visitor may see of a share: it, its removal with the admin's reason, or nothing. */
export type ShareVisibility =
  { kind: 'visible' } | { kind: 'removed'; reason: string } | { kind: 'notFound' }

/** The columns the visibility rule reads (a page may load only these). */
export const VISIBILITY_COLUMNS = ['id', 'removed_reason', 'expiration', 'completed'] as const

/** The rule: missing, expired or not completed is not found; removed says why. */
export function visibilityOf(
  share: Pick<Share, 'removedReason' | 'expiration' | 'completed'> | null
): ShareVisibility {
  if (!share) return { kind: 'notFound' }
  if (share.removedReason) return { kind: 'removed', reason: share.removedReason }
  if (isExpired(share.expiration) || !share.completed) return { kind: 'notFound' }
  return { kind: 'visible' }
}

/** The share lookups; resolve it from the container or inject it. */
@inject()
export default class ShareQueries {
  /** A share by id or 404 "Share not found" (any state: owner routes). */
  async findOrFail(id: string): Promise<Share> {
    const share = await Share.find(id)
    if (!share) throw shareErrors.notFound()
    return share
  }

  /**
   * A share as visitors may reach it, or the error of its state: 404 "Share
   * not found" (missing, expired or not completed), 404 `share_removed` with
   * the admin's reason.
   */
  async findVisible(id: string): Promise<Share> {
    const share = await Share.find(id)
    const visibility = visibilityOf(share)
    if (visibility.kind === 'removed') throw shareErrors.removed(visibility.reason)
    if (visibility.kind === 'notFound' || !share) throw shareErrors.notFound()
    return share
  }

  /**
   * A file of `share` by id, or 404 "File not found" (unknown, of another
   * share, or, with `completedOnly`, still uploading).
   */
  async findFileOrFail(share: Share, fileId: string, completedOnly = false): Promise<ShareFile> {
    const query = ShareFile.query().where('id', fileId).where('shareId', share.id)
    if (completedOnly) query.where('completed', true)
    const file = await query.first()
    if (!file) throw shareErrors.fileNotFound()
    return file
  }

  /** Loads what the "share" object shows (files, security, creator). */
  async withRelations(share: Share): Promise<Share> {
    await share.load((loader) => loader.load('files').load('security').load('creator'))
    return share
  }

  /** The user's completed, unexpired shares ("my share" objects need files, security, recipients). */
  async sharesOf(user: User): Promise<Share[]> {
    return Share.query()
      .where('creatorId', user.id)
      .where('completed', true)
      .where((query) => query.whereNull('expiration').orWhere('expiration', '>', dbNow()))
      .preload('files')
      .preload('security')
      .preload('recipients')
      .orderBy('expiration', 'desc')
      .orderBy('createdAt', 'desc')
  }

  /** Every share, for admins ("admin share" objects need files and creator). */
  async all(): Promise<Share[]> {
    return Share.query().preload('files').preload('creator').orderBy('createdAt', 'desc')
  }
}
