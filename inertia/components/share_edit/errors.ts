/**
 * Texts of failed calls on the share edit page: the shares API's messages
 * with a translation, else the generic API error text.
 */
import type { TranslateFn } from '~/lib/i18n'
import { isApiError } from '~/lib/api'

/** Shares API messages (English, as the server sends them) and their catalogue keys. */
const SHARE_MESSAGES: Record<string, string> = {
  'Expiration date exceeds maximum expiration date': 'share_edit.errors.expirationTooLong',
  'Max share size exceeded': 'share_edit.errors.maxSizeExceeded',
  'Share not found': 'share_edit.errors.notFound',
  'File not found': 'share_edit.errors.fileNotFound',
  'Forbidden': 'share_edit.errors.forbidden',
  'Not enough storage space': 'share_edit.errors.insufficientStorage',
}

/**
 * What to say about a failed share-edit call: the translated shares message
 * when the API sent a known one, else `errorText(error)`.
 */
export function shareEditErrorText(
  t: TranslateFn,
  errorText: (error: unknown) => string,
  error: unknown
): string {
  if (isApiError(error)) {
    const key = error.messages.map((message) => SHARE_MESSAGES[message]).find(Boolean)
    if (key) return t(key)
  }
  return errorText(error)
}
