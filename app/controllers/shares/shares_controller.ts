import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ShareQueries from '#services/shares/share_queries'
import ShareService from '#services/shares/share_service'
import { deleterOf } from '#services/shares/share_owner'
import ShareVisitorAccess from '#services/shares/share_visitor_access'
import ShareTransformer from '#transformers/share_transformer'
import {
  createShareValidator,
  emptyToNull,
  shareValidationMessages,
  updateShareValidator,
} from '#validators/shares'
import { authorizeShare, shareCreator } from '#controllers/shares/share_caller'
import { shareTokenOf } from '#controllers/shares/share_token_cookie'
import { creatingThroughReverseShare } from '#controllers/reverse_shares/reverse_share_cookie'
import { requestOrigin } from '#http/request_origin'

/** Pingvin's shares routes (`/api/shares*`; files and tokens have their own controllers). */
@inject()
export default class SharesController {
  constructor(
    private shares: ShareService,
    private queries: ShareQueries,
    private access: ShareVisitorAccess
  ) {}

  /** GET /api/shares/isShareIdAvailable/:id: exactly `{isAvailable}`. */
  async isIdAvailable({ params, response }: HttpContext) {
    return response.ok(await this.shares.isIdAvailable(params.id))
  }

  /** POST /api/shares: 201 exactly `{id, name, expiration, description}`. */
  async store(ctx: HttpContext) {
    const share = await creatingThroughReverseShare(ctx, async (reverseShareToken) => {
      const creator = await shareCreator(ctx, reverseShareToken)
      const input = await createShareValidator.validate(emptyToNull(ctx.request.body()), {
        messagesProvider: shareValidationMessages,
      })
      return this.shares.create(input, creator)
    })
    return ctx.response.created(ShareTransformer.toCreatedJSON(share))
  }

  /** POST /api/shares/:id/complete: 202 completed share. */
  async complete(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    await authorizeShare(ctx, 'manage', share)
    const completed = await this.shares.complete(share, requestOrigin(ctx.request))
    return ctx.response.accepted({
      ...ShareTransformer.toCreatedJSON(completed.share),
      ...completed.extra,
    })
  }

  /** DELETE /api/shares/:id/complete: reopens the share for editing; 200 share. */
  async reopen(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    await authorizeShare(ctx, 'manage', share)
    await this.shares.reopen(share)
    return ctx.response.ok(ShareTransformer.toJSON(await this.queries.withRelations(share)))
  }

  /** PATCH /api/shares/:id (ext): edits name, description, expiration, password, view limit; 200 share. */
  async update(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    await authorizeShare(ctx, 'manage', share)
    const input = await updateShareValidator.validate(emptyToNull(ctx.request.body()), {
      messagesProvider: shareValidationMessages,
    })
    await this.shares.update(share, input)
    return ctx.response.ok(ShareTransformer.toJSON(await this.queries.withRelations(share)))
  }

  /** DELETE /api/shares/:id: 200; anonymous shares only by admins. */
  async destroy(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    const caller = await authorizeShare(ctx, 'delete', share)
    await this.shares.delete(share, null, deleterOf(share, caller.user))
    return ctx.response.ok('')
  }

  /** GET /api/shares: the caller's completed, unexpired shares ("my share" objects). */
  async index({ auth, response }: HttpContext) {
    const shares = await this.queries.sharesOf(auth.getUserOrFail())
    return response.ok(shares.map((share) => ShareTransformer.toMyShareJSON(share)))
  }

  /** GET /api/shares/all: every share ("admin share" objects). */
  async all({ response }: HttpContext) {
    const shares = await this.queries.all()
    return response.ok(shares.map((share) => ShareTransformer.toAdminJSON(share)))
  }

  /** GET /api/shares/:id/from-owner: the share for its owner, no share token needed. */
  async fromOwner(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    await authorizeShare(ctx, 'manage', share)
    return ctx.response.ok(ShareTransformer.toJSON(await this.queries.withRelations(share)))
  }

  /** GET /api/shares/:id: the share for a visitor with a share token; files sorted by name. */
  async show(ctx: HttpContext) {
    const share = await this.queries.findVisible(ctx.params.id)
    await ctx.auth.check()
    await this.access.assertShareToken(share, shareTokenOf(ctx, share.id), ctx.auth.user ?? null)
    return ctx.response.ok(ShareTransformer.toJSON(await this.queries.withRelations(share)))
  }

  /** GET /api/shares/:id/metaData: `{id, isZipReady}` (zips are streamed: ready once completed). */
  async metaData(ctx: HttpContext) {
    const share = await this.queries.findVisible(ctx.params.id)
    await ctx.auth.check()
    await this.access.assertShareToken(share, shareTokenOf(ctx, share.id), ctx.auth.user ?? null)
    return ctx.response.ok({ id: share.id, isZipReady: share.completed })
  }
}
