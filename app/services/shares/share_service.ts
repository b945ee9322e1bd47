/**
 * The share lifecycle: create, complete, reopen, edit and
 * delete. Callers have checked who may call (SharePolicy); this service
 * applies the rules. It takes and returns plain values and models.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import { hooks, type ReverseShareForCreation } from '#extensions/hooks/main'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import ShareRecipient from '#models/share_recipient'
import ShareSecurity from '#models/share_security'
import type User from '#models/user'
import FileStorage from '#services/files/file_storage'
import { faultPoint } from '#services/files/fault_points'
import { affectedRows, dbNow, discardUnstartedFiles } from '#services/files/upload_sessions'
import ShareMailService from '#services/mail/share_mails'
import { notificationShare, shareOwnerId } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'
import { resolveExpiration } from '#services/shares/expiration'
import { shareErrors } from '#services/shares/share_errors'

/** The validated body of `POST /api/shares`. */
export interface CreateShareInput {
  id: string
  name?: string | null
  description?: string | null
  expiration: string
  recipients?: string[]
  security?: { password?: string | null; maxViews?: number | null } | null
}

/** Who creates a share. */
export interface ShareCreator {
  user: User | null
  /** Digest of the visitor's ownership cookie (visitor shares only). */
  ownerTokenHash: string | null
  reverseShare: ReverseShareForCreation | null
}

/** The validated body of `PATCH /api/shares/:id`. */
export interface UpdateShareInput {
  name?: string | null
  description?: string | null
  expiration?: string
  security?: { password?: string | null; maxViews?: number | null }
}

/** What completing a share returns: the share and extra keys of the completed reply. */
export interface CompletedShare {
  share: Share
  /** Extra keys of the reply (`notifyReverseShareCreator` for shares of a reverse share). */
  extra: { notifyReverseShareCreator?: boolean }
}

/** The share lifecycle; resolve it from the container or inject it. */
@inject()
export default class ShareService {
  constructor(
    private files: FileStorage,
    private mails: ShareMailService,
    private notifications: NotificationRouter
  ) {}

  /** `{isAvailable}`: whether no share uses `id`. */
  async isIdAvailable(id: string): Promise<{ isAvailable: boolean }> {
    return { isAvailable: !(await Share.find(id)) }
  }

  /**
   * Creates a share. Runs `share:before_create` (handlers may change fields or
   * refuse), then stores the share, its security and recipients in one
   * transaction that starts with `share:before_insert` (a reverse share takes
   * one of its uses there, or refuses), and emits `share:created`. Throws 400
   * "Share id already in use", 400 for an expiration over the maximum, 400 for
   * recipients while sharing by mail is off, and a handler's refusal.
   */
  async create(input: CreateShareInput, creator: ShareCreator): Promise<Share> {
    await this.mails.assertRecipientsAllowed(input.recipients)
    if (await Share.find(input.id)) throw shareErrors.idInUse()
    const expiration = creator.reverseShare
      ? creator.reverseShare.shareExpiration
      : await resolveExpiration(input.expiration)

    const { share: fields } = await hooks.filter('share:before_create', {
      share: {
        id: input.id,
        name: input.name ?? null,
        description: input.description ?? null,
        expiration: expiration ? expiration.toUTC().toISO() : null,
        recipients: input.recipients ?? [],
        security: {
          password: input.security?.password ?? null,
          maxViews: input.security?.maxViews ?? null,
        },
      },
      creatorId: creator.user?.id ?? null,
      reverseShareId: creator.reverseShare?.id ?? null,
    })
    const password = fields.security?.password ? await hash.make(fields.security.password) : null
    const maxViews = fields.security?.maxViews ?? null
    const row = {
      id: fields.id,
      name: fields.name ?? null,
      description: fields.description ?? null,
      expiration: fields.expiration ? DateTime.fromISO(fields.expiration, { zone: 'utc' }) : null,
      creatorId: creator.user?.id ?? null,
      reverseShareId: creator.reverseShare?.id ?? null,
      ownerTokenHash: creator.user ? null : creator.ownerTokenHash,
    }
    // Built before the transaction (they read settings); the event is stored with the share.
    const event = { share: await notificationShare(row) }
    const ownerId = await shareOwnerId(row)

    try {
      const share = await db.transaction(async (trx) => {
        // First, before the row: its foreign key would lock the reverse share
        // row for reading, and two transactions then each waiting to update it
        // would deadlock on MySQL.
        const { reverseShareUseReserved } = await hooks.filter('share:before_insert', {
          shareId: row.id,
          creatorId: row.creatorId,
          ownerTokenHash: row.ownerTokenHash,
          reverseShareId: row.reverseShareId,
          reverseShareUseReserved: false,
          client: trx,
        })
        const created = await Share.create({ ...row, reverseShareUseReserved }, { client: trx })
        if (password || maxViews) {
          await ShareSecurity.create({ shareId: created.id, password, maxViews }, { client: trx })
        }
        for (const email of new Set(fields.recipients)) {
          await ShareRecipient.create({ shareId: created.id, email }, { client: trx })
        }
        await this.notifications.emit('share.created', event, { client: trx, userId: ownerId })
        return created
      })
      await hooks.emit('share:created', { shareId: share.id, creatorId: share.creatorId })
      return share
    } catch (error) {
      if (await Share.find(fields.id)) throw shareErrors.idInUse()
      throw error
    }
  }

  /**
   * Completes a share (once: a conditional UPDATE decides), runs the
   * `share:before_complete` hook (reverse shares count their use there),
   * mails the recipients on the first completion and emits `share:completed`. Files
   * that never received a whole chunk (a first chunk whose connection died:
   * the client never got their id) are discarded first, so they cannot block
   * the owner. Throws 400 "Share already completed", 400 without files or with
   * files still uploading. `requestOrigin`: the origin the requester's
   * browser used (`#http/request_origin`), the base of the mailed links until
   * the public address is confirmed (`#services/links/link_base`).
   */
  async complete(share: Share, requestOrigin: string | null): Promise<CompletedShare> {
    if (share.completed) throw shareErrors.alreadyCompleted()
    await discardUnstartedFiles(share.id)
    const files = await ShareFile.query().where('shareId', share.id)
    if (files.length === 0) throw shareErrors.noFiles()
    if (files.some((file) => !file.completed)) throw shareErrors.unfinishedFiles()
    await faultPoint('completing', share.id)
    // Reopening and completing again must not mail or count a reverse-share use twice.
    const firstCompletion = !share.completedAt
    const claimed = affectedRows(
      await db
        .from('shares')
        .where('id', share.id)
        .where('completed', false)
        .update({ completed: true, completed_at: db.raw('COALESCE(completed_at, ?)', [dbNow()]) })
    )
    if (!claimed) throw shareErrors.alreadyCompleted()
    share.completed = true

    const extra = (await this.#beforeComplete(share, firstCompletion)) as CompletedShare['extra']
    const totals = {
      fileCount: files.length,
      size: files.reduce((sum, file) => sum + file.size, 0),
    }
    if (firstCompletion) {
      await this.mails.sendRecipientMails(share, requestOrigin)
      const event = { share: await notificationShare(share, totals) }
      await this.notifications.emit('share.completed', event, { userId: await shareOwnerId(share) })
    }
    await hooks.emit('share:completed', {
      shareId: share.id,
      creatorId: share.creatorId,
      ...totals,
    })
    return { share, extra }
  }

  /**
   * Runs `share:before_complete` on a claimed completion and resolves to the
   * reply's extra keys. A handler that refuses (a reverse share with no use
   * left: 410) has its error answered, and the claim is undone first.
   */
  async #beforeComplete(share: Share, firstCompletion: boolean): Promise<Record<string, unknown>> {
    try {
      const { reply } = await hooks.filter('share:before_complete', {
        shareId: share.id,
        creatorId: share.creatorId,
        reverseShareId: share.reverseShareId,
        firstCompletion,
        reply: {},
      })
      return reply
    } catch (error) {
      await db
        .from('shares')
        .where('id', share.id)
        .update({ completed: false, ...(firstCompletion ? { completed_at: null } : {}) })
      share.completed = false
      throw error
    }
  }

  /** Reopens a completed share for editing (no-op when it is open). */
  async reopen(share: Share): Promise<void> {
    await db.from('shares').where('id', share.id).update({ completed: false })
    share.completed = false
  }

  /**
   * Deletes a share: its stored files first, then the rows (cascades) with
   * the `share.deleted` notification in one transaction, which first runs
   * `share:before_delete` (a reverse share takes back the use of a share
   * never completed), and emits `share:deleted` with the reason (null when
   * deleted by its owner). `by` (the notification's) defaults to the owner
   * without a reason, else the system.
   */
  async delete(
    share: Share,
    reason: string | null = null,
    by: 'owner' | 'admin' | 'system' = reason === null ? 'owner' : 'system'
  ): Promise<void> {
    const event = { share: await notificationShare(share), by, reason }
    const ownerId = await shareOwnerId(share)
    await this.files.removeShareFiles(share.id)
    await db.transaction(async (trx) => {
      await hooks.filter('share:before_delete', {
        shareId: share.id,
        reverseShareId: share.reverseShareId,
        client: trx,
      })
      await Share.query({ client: trx }).where('id', share.id).delete()
      await this.notifications.emit('share.deleted', event, { client: trx, userId: ownerId })
    })
    await hooks.emit('share:deleted', { shareId: share.id, reason })
  }

  /**
   * Edits a share after creation (ext): name and description (null clears),
   * expiration (same rules as on creation; fixed for a share made through a
   * reverse share, whose link set it), password (null removes) and view limit
   * (null removes).
   */
  async update(share: Share, input: UpdateShareInput): Promise<void> {
    if (input.expiration !== undefined && share.reverseShareId)
      throw shareErrors.expirationFixedByReverseShare()
    if (input.name !== undefined) share.name = input.name
    if (input.description !== undefined) share.description = input.description
    if (input.expiration !== undefined) share.expiration = await resolveExpiration(input.expiration)
    // A new expiry is announced again by the expiring-soon job (expiry_notice_job.ts).
    const clearExpiryNotice = input.expiration !== undefined
    const security = input.security
    const password =
      typeof security?.password === 'string'
        ? await hash.make(security.password)
        : security?.password

    await db.transaction(async (trx) => {
      share.useTransaction(trx)
      await share.save()
      if (clearExpiryNotice)
        await trx.from(Share.table).where('id', share.id).update({ expiry_notified_at: null })
      if (!security || (password === undefined && security.maxViews === undefined)) return
      const row =
        (await ShareSecurity.query({ client: trx }).where('shareId', share.id).first()) ??
        new ShareSecurity().merge({ shareId: share.id, password: null, maxViews: null })
      row.useTransaction(trx)
      if (password !== undefined) row.password = password
      if (security.maxViews !== undefined) row.maxViews = security.maxViews
      await row.save()
    })
  }
}
