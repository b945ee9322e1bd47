/**
 * The errors of the reverse-shares API (`/api/reverseShares*`). They are
 * `ShareApiException`s, so the exception handler answers them like the
 * shares API: `{statusCode, message, error}`.
 */
import { ShareApiException } from '#services/shares/share_errors'

/**
 * "Reverse share token not found": 404 on `GET /api/reverseShares/:token`,
 * 403 for the `reverse_share_token` cookie of `POST /api/shares` (Pingvin's
 * status there). Its own class so the controller that read the cookie can
 * tell a dead token and clear it.
 */
export class ReverseShareTokenNotFoundException extends ShareApiException {
  constructor(status: 403 | 404 = 404) {
    super('Reverse share token not found', status)
  }
}

/** Factories of every error the reverse-shares API answers. */
export const reverseShareErrors = {
  /** 404 "Reverse share token not found": unknown, expired or used-up token. */
  tokenNotFound: () => new ReverseShareTokenNotFoundException(404),
  /**
   * 403 "Reverse share token not found": `POST /api/shares` with an unknown,
   * expired or used-up `reverse_share_token` cookie (Pingvin answered 403),
   * also when the last use was taken by another uploader while this share
   * was being created.
   */
  tokenRefused: () => new ReverseShareTokenNotFoundException(403),
  /** 404 "Reverse share not found": unknown id. */
  notFound: () => new ShareApiException('Reverse share not found', 404),
  /** 403 "Forbidden": a signed-in user who is neither the reverse share's creator nor an admin. */
  forbidden: () => new ShareApiException('Forbidden', 403),
  /** 400 "Max share size can't be greater than <n> bytes." (`share.maxSize`). */
  maxShareSizeTooLarge: (maxSize: number) =>
    new ShareApiException(`Max share size can't be greater than ${maxSize} bytes.`, 400),
  /**
   * 410 `reverse_share_unavailable` on `POST /api/shares/:id/complete`: the
   * reverse share expired while this share was uploading (or, for a share
   * created before uses were taken at creation, it has no use left). The
   * share has been deleted with its files.
   */
  /**
   * 410 `reverse_share_upload_given_up` on a chunk for a share whose uploader
   * started again: the new share took its use (ReverseShareService.takeOverUse).
   */
  uploadGivenUp: () =>
    new ShareApiException(
      'This upload was started again in another share; this one takes no more files',
      410,
      'reverse_share_upload_given_up'
    ),
  unavailableOnCompletion: () =>
    new ShareApiException(
      'This reverse share link has no uses left or has expired; the share was not kept',
      410,
      'reverse_share_unavailable'
    ),
}
