/**
 * The errors of the reverse-shares API (spec/api.md §5). They are
 * `ShareApiException`s, so the exception handler answers them like the
 * shares API: `{statusCode, message, error}`.
 */
import { ShareApiException } from '#services/shares/share_errors'

/**
 * 404 "Reverse share token not found": its own class so the controller that
 * read the `reverse_share_token` cookie can tell a dead token and clear it.
 */
export class ReverseShareTokenNotFoundException extends ShareApiException {
  constructor() {
    super('Reverse share token not found', 404)
  }
}

/** Factories of every error the reverse-shares API answers. */
export const reverseShareErrors = {
  /** 404 "Reverse share token not found": unknown, expired or used-up token. */
  tokenNotFound: () => new ReverseShareTokenNotFoundException(),
  /** 404 "Reverse share not found": unknown id, or a reverse share of someone else. */
  notFound: () => new ShareApiException('Reverse share not found', 404),
  /** 400 "Max share size can't be greater than <n> bytes." (`share.maxSize`). */
  maxShareSizeTooLarge: (maxSize: number) =>
    new ShareApiException(`Max share size can't be greater than ${maxSize} bytes.`, 400),
  /**
   * 410 `reverse_share_unavailable` on `POST /api/shares/:id/complete`: the
   * reverse share ran out of uses (another uploader completed the last one)
   * or expired while this share was uploading. The share has been deleted
   * with its files.
   */
  unavailableOnCompletion: () =>
    new ShareApiException(
      'This reverse share link has no uses left or has expired; the share was not kept',
      410,
      'reverse_share_unavailable'
    ),
}
