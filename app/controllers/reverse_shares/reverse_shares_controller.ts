/**
 * Pingvin's reverse-shares API (`/api/reverseShares`): create, look up by token (which
 * sets the `reverse_share_token` cookie), list the caller's, delete.
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { setReverseShareCookie } from '#controllers/reverse_shares/reverse_share_cookie'
import { useHolderOf } from '#controllers/shares/share_caller'
import { reverseShareErrors } from '#services/reverse_shares/reverse_share_errors'
import ReverseShareService from '#services/reverse_shares/reverse_share_service'
import ReverseShareTransformer from '#transformers/reverse_share_transformer'
import { requestOrigin } from '#http/request_origin'
import { createReverseShareValidator } from '#validators/reverse_shares'

/** The reverse-shares routes. */
@inject()
export default class ReverseSharesController {
  constructor(private reverseShares: ReverseShareService) {}

  /** POST /api/reverseShares (user): 201 exactly `{token, link}`. */
  async store({ auth, request, response }: HttpContext) {
    const input = await createReverseShareValidator.validate(request.body())
    const reverseShare = await this.reverseShares.create(auth.getUserOrFail(), input)
    return response.created(
      ReverseShareTransformer.toCreatedJSON(
        reverseShare,
        await this.reverseShares.appUrl(requestOrigin(request))
      )
    )
  }

  /**
   * GET /api/reverseShares/:token (public): 200 `{id, maxShareSize,
   * shareExpiration, token, simplified}` and the `reverse_share_token`
   * cookie for the share about to be uploaded; 404 for an unknown, expired
   * or used-up token (not used up for an uploader whose unfinished share
   * holds a use: they may start again).
   */
  async show(ctx: HttpContext) {
    const reverseShare = await this.reverseShares.findLiveOrFail(
      String(ctx.params.token),
      await useHolderOf(ctx)
    )
    await setReverseShareCookie(ctx, reverseShare)
    return ctx.response.ok(ReverseShareTransformer.toPublicJSON(reverseShare))
  }

  /** GET /api/reverseShares (user): the caller's unexpired reverse shares with their completed shares. */
  async index({ auth, request, response }: HttpContext) {
    const reverseShares = await this.reverseShares.listOf(auth.getUserOrFail())
    const appUrl = await this.reverseShares.appUrl(requestOrigin(request))
    return response.ok(
      reverseShares.map((reverseShare) => ReverseShareTransformer.toJSON(reverseShare, appUrl))
    )
  }

  /**
   * DELETE /api/reverseShares/:id (its creator or an admin, ReverseSharePolicy):
   * 200, its shares and their files too; 404 "Reverse share not found" for an
   * unknown id; 403 "Forbidden" for another signed-in user (as Pingvin).
   */
  async destroy({ bouncer, params, response }: HttpContext) {
    const reverseShare = await this.reverseShares.findOrFail(String(params.id))
    if (await bouncer.with('ReverseSharePolicy').denies('manage', reverseShare))
      throw reverseShareErrors.forbidden()
    await this.reverseShares.delete(reverseShare)
    return response.ok('')
  }
}
