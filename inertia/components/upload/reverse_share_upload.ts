/**
 * Creating the share of an upload through a reverse share (`/upload/:token`).
 *
 * The server knows a share is made through a reverse share from the
 * `reverse_share_token` cookie. Its lookup route `GET /api/reverseShares/:token`
 * sets that cookie (HttpOnly, `Path=/api/shares`, at most an hour), and
 * `POST /api/shares` clears it once the share is stored. The page therefore
 * makes the lookup right before the creation and nowhere else: the cookie
 * exists only for that one request and never reaches a later, ordinary
 * upload (the ordinary upload page also clears a leftover one when it is
 * rendered).
 */
import { api, isApiError } from '~/lib/api'
import type { CreatedShare } from '#api/share'
import { UploadError, createShare, type CreateShareInput, type FetchFn } from '~/lib/upload'
import { reverseSharePaths } from '~/components/reverse_shares/types'

/** The reverse share can't take a share anymore: unknown, expired or used up. */
export class ReverseShareUnavailableError extends Error {
  constructor() {
    super('Reverse share token not found')
    this.name = 'ReverseShareUnavailableError'
  }
}

/**
 * Creates the (uncompleted) share through the reverse share of `token`:
 * the lookup (sets the cookie), then `POST /api/shares`. The expiration sent
 * is a placeholder the server ignores (the reverse share's applies). Throws
 * `ReverseShareUnavailableError` when the link is dead, `UploadError` /
 * `ApiError` for other refusals.
 */
export async function createReverseShareShare(
  fetchFn: FetchFn,
  token: string,
  input: Omit<CreateShareInput, 'expiration'>
): Promise<CreatedShare> {
  try {
    await api.get(reverseSharePaths.byToken(token))
  } catch (error) {
    if (isApiError(error) && error.statusCode === 404) throw new ReverseShareUnavailableError()
    throw error
  }
  try {
    return await createShare({ fetch: fetchFn }, { ...input, expiration: 'never' })
  } catch (error) {
    // 403: the token died between the lookup and the creation (unknown, expired or used up).
    if (error instanceof UploadError && error.status === 403)
      throw new ReverseShareUnavailableError()
    throw error
  }
}

/**
 * True for the refusal of `POST /api/shares/:id/complete` when the reverse
 * share expired during the upload (410 `reverse_share_unavailable`; the
 * server discarded the share). Its use was taken when the share was created.
 */
export function isReverseShareUsedUp(error: unknown): boolean {
  return (
    error instanceof UploadError &&
    (error.error === 'reverse_share_unavailable' || error.status === 410)
  )
}
