/**
 * Share tokens (`POST /api/shares/:id/token`): an HS256 JWT per share with claims
 * `shareId`, `shareCreatedAt` and `exp` = the share's expiry (none for never),
 * which the controllers send as the HttpOnly session cookie
 * `share_<id>_token`. Every token issued counts one view, atomically against
 * the view limit.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Share from '#models/share'
import ShareSecurity from '#models/share_security'
import { signJwt, verifyJwt, type JwtPayload } from '#services/auth/jwt'
import InstanceSecretService, { INSTANCE_SECRETS } from '#services/auth/instance_secret_service'
import { replacePasswordHash, verifyPasswordHash } from '#services/auth/password_hashes'
import RateLimiter from '#services/auth/rate_limiter'
import { shareErrors } from '#services/shares/share_errors'

/** Claims of a share token. */
export type ShareTokenClaims = JwtPayload & {
  shareId: string
  shareCreatedAt: string
  iat: number
}

/** The rate-limit action of share passwords (per IP, per share and IP, per share). */
export const SHARE_PASSWORD_ACTION = 'share-password'

/** The cookie name of a share's token. */
export function shareCookieName(shareId: string): string {
  return `share_${shareId}_token`
}

/** The share's creation date as the token records it (second precision, all databases agree). */
function createdAtClaim(share: Share): string {
  return share.createdAt.toUTC().startOf('second').toISO()!
}

/** Signs, verifies and issues share tokens. */
@inject()
export default class ShareTokenService {
  constructor(
    private secrets: InstanceSecretService,
    private limiter: RateLimiter
  ) {}

  async #secret(): Promise<string> {
    return this.secrets.get(INSTANCE_SECRETS.jwt)
  }

  /** Signs a token for `share` (expiring with the share). */
  async sign(share: Share): Promise<string> {
    const claims: ShareTokenClaims = {
      shareId: share.id,
      shareCreatedAt: createdAtClaim(share),
      iat: Math.floor(Date.now() / 1000),
    }
    if (share.expiration) claims.exp = Math.floor(share.expiration.toSeconds())
    return signJwt({ ...claims }, await this.#secret())
  }

  /** True when `token` is a valid, unexpired token of this very share (not of an earlier share with the same id). */
  async verify(share: Share, token: unknown): Promise<boolean> {
    if (typeof token !== 'string' || token === '') return false
    const claims = await verifyJwt<ShareTokenClaims>(token, await this.#secret())
    return Boolean(
      claims && claims.shareId === share.id && claims.shareCreatedAt === createdAtClaim(share)
    )
  }

  /**
   * Counts one view if the limit allows it, in one conditional UPDATE
   * (`views < max_views`), so concurrent visitors can never exceed it.
   * Returns false when the limit is reached.
   */
  async countView(share: Share, maxViews: number | null): Promise<boolean> {
    const query = db.knexQuery().from('shares').where('id', share.id)
    if (maxViews !== null && maxViews !== undefined) query.where('views', '<', maxViews)
    const updated = await query.increment('views', 1)
    return Number(updated) > 0
  }

  /**
   * `POST /api/shares/:id/token`: checks the password (403
   * `share_password_required` / `wrong_password`) BEFORE the view limit (403
   * `share_max_views_exceeded`), counts the view and returns a new token.
   * With the client's address `ip`, each password check is rate limited
   * (429 with `retryAfter`): the attempt is counted before the hash is
   * compared, so parallel guesses cannot outrun the limit, and a right
   * password gives its points back.
   */
  async issue(
    share: Share,
    password: string | null | undefined,
    ip: string | null = null
  ): Promise<string> {
    const security = await ShareSecurity.findBy('shareId', share.id)
    if (security?.password) {
      if (!password) throw shareErrors.passwordRequired()
      const attempt =
        ip !== null ? await this.limiter.attempt(SHARE_PASSWORD_ACTION, ip, share.id) : null
      const check = await verifyPasswordHash(security.password, password)
      if (!check.ok) throw shareErrors.wrongPassword()
      await attempt?.succeeded()
      // An argon2id hash of a share imported from Pingvin becomes scrypt on its first correct use.
      if (check.rehash)
        await replacePasswordHash(
          { table: 'share_securities', id: security.id },
          security.password,
          password
        )
    }
    if (!(await this.countView(share, security?.maxViews ?? null)))
      throw shareErrors.maxViewsExceeded()
    return this.sign(share)
  }
}
