import type { HttpContext } from '@adonisjs/core/http'
import { shareErrors } from '#services/shares/share_errors'
import { assertOwner, shareCaller, shareCreator } from '#services/shares/share_owner'
import {
  adminShareJson,
  createdShareJson,
  myShareJson,
  shareJson,
} from '#services/shares/share_presenter'
import {
  allShares,
  findShareOrFail,
  findVisibleShare,
  sharesOf,
  withShareRelations,
} from '#services/shares/share_queries'
import {
  completeShare,
  createShare,
  deleteShare,
  isShareIdAvailable,
  reopenShare,
  updateShare,
} from '#services/shares/share_service'
import { shareSeams } from '#services/shares/share_seams'
import { assertShareToken } from '#services/shares/share_visitor_access'
import {
  createShareValidator,
  emptyToNull,
  shareValidationMessages,
  updateShareValidator,
} from '#validators/shares'

/** The shares routes of spec/api.md §4 (files and tokens have their own controllers). */
export default class SharesController {
  /** GET /api/shares/isShareIdAvailable/:id: exactly `{isAvailable}`. */
  async isIdAvailable({ params, response }: HttpContext) {
    return response.ok(await isShareIdAvailable(params.id))
  }

  /** POST /api/shares: 201 exactly `{id, name, expiration, description}`. */
  async store(ctx: HttpContext) {
    const creator = await shareCreator(ctx)
    const input = await createShareValidator.validate(emptyToNull(ctx.request.body()), {
      messagesProvider: shareValidationMessages,
    })
    const share = await createShare(input, creator)
    await shareSeams.afterCreated(ctx, share)
    return ctx.response.created(createdShareJson(share))
  }

  /** POST /api/shares/:id/complete: 202 completed share. */
  async complete(ctx: HttpContext) {
    const share = await findShareOrFail(ctx.params.id)
    assertOwner(share, await shareCaller(ctx))
    return ctx.response.accepted(await completeShare(share))
  }

  /** DELETE /api/shares/:id/complete: reopens the share for editing; 200 share. */
  async reopen(ctx: HttpContext) {
    const share = await findShareOrFail(ctx.params.id)
    assertOwner(share, await shareCaller(ctx))
    await reopenShare(share)
    return ctx.response.ok(shareJson(await withShareRelations(share)))
  }

  /** PATCH /api/shares/:id (ext): edits name, description, expiration, password, view limit; 200 share. */
  async update(ctx: HttpContext) {
    const share = await findShareOrFail(ctx.params.id)
    assertOwner(share, await shareCaller(ctx))
    const input = await updateShareValidator.validate(emptyToNull(ctx.request.body()), {
      messagesProvider: shareValidationMessages,
    })
    await updateShare(share, input)
    return ctx.response.ok(shareJson(await withShareRelations(share)))
  }

  /** DELETE /api/shares/:id: 200; anonymous shares only by admins. */
  async destroy(ctx: HttpContext) {
    const share = await findShareOrFail(ctx.params.id)
    const caller = await shareCaller(ctx)
    if (!share.creatorId && !caller.user?.isAdmin) throw shareErrors.anonymousDelete()
    assertOwner(share, caller)
    await deleteShare(share)
    return ctx.response.ok('')
  }

  /** GET /api/shares: the caller's completed, unexpired shares ("my share" objects). */
  async index({ user, response }: HttpContext) {
    return response.ok((await sharesOf(user!)).map(myShareJson))
  }

  /** GET /api/shares/all: every share ("admin share" objects). */
  async all({ response }: HttpContext) {
    return response.ok((await allShares()).map(adminShareJson))
  }

  /** GET /api/shares/:id/from-owner: the share for its owner, no share token needed. */
  async fromOwner(ctx: HttpContext) {
    const share = await findShareOrFail(ctx.params.id)
    assertOwner(share, await shareCaller(ctx))
    return ctx.response.ok(shareJson(await withShareRelations(share)))
  }

  /** GET /api/shares/:id: the share for a visitor with a share token; files sorted by name. */
  async show(ctx: HttpContext) {
    const share = await findVisibleShare(ctx.params.id)
    await assertShareToken(ctx, share)
    return ctx.response.ok(shareJson(await withShareRelations(share)))
  }

  /** GET /api/shares/:id/metaData: `{id, isZipReady}` (zips are streamed: ready once completed). */
  async metaData(ctx: HttpContext) {
    const share = await findVisibleShare(ctx.params.id)
    await assertShareToken(ctx, share)
    return ctx.response.ok({ id: share.id, isZipReady: share.completed })
  }
}
