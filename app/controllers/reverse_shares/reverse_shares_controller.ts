import type { HttpContext } from '@adonisjs/core/http'
import { setReverseShareCookie } from '#services/reverse_shares/reverse_share_cookie'
import {
  createdReverseShareJson,
  publicReverseShareJson,
  reverseShareJson,
} from '#services/reverse_shares/reverse_share_presenter'
import {
  createReverseShare,
  deleteReverseShare,
  findLiveReverseShareOrFail,
  findOwnedReverseShareOrFail,
  reverseSharesOf,
} from '#services/reverse_shares/reverse_share_service'
import { createReverseShareValidator } from '#validators/reverse_shares'

/** The reverse-shares routes of spec/api.md §5. */
export default class ReverseSharesController {
  /** POST /api/reverseShares (user): 201 exactly `{token, link}`. */
  async store({ user, request, response }: HttpContext) {
    const input = await createReverseShareValidator.validate(request.body())
    const reverseShare = await createReverseShare(user!, input)
    return response.created(await createdReverseShareJson(reverseShare))
  }

  /**
   * GET /api/reverseShares/:token (public): 200 `{id, maxShareSize,
   * shareExpiration, token, simplified}` and the `reverse_share_token`
   * cookie for the share about to be uploaded; 404 for an unknown, expired
   * or used-up token.
   */
  async show(ctx: HttpContext) {
    const reverseShare = await findLiveReverseShareOrFail(String(ctx.params.token))
    await setReverseShareCookie(ctx, reverseShare)
    return ctx.response.ok(publicReverseShareJson(reverseShare))
  }

  /** GET /api/reverseShares (user): the caller's unexpired reverse shares with their completed shares. */
  async index({ user, response }: HttpContext) {
    const reverseShares = await reverseSharesOf(user!)
    return response.ok(await Promise.all(reverseShares.map(reverseShareJson)))
  }

  /** DELETE /api/reverseShares/:id (its creator or an admin): 200, its shares and their files too; 404 otherwise. */
  async destroy({ user, params, response }: HttpContext) {
    await deleteReverseShare(await findOwnedReverseShareOrFail(user!, String(params.id)))
    return response.ok('')
  }
}
