/**
 * Refine's i18n provider over the pages' catalogues: Refine's own keys
 * (`buttons.save`, `notifications.deleteSuccess`, ...) and the panel's
 * (`users.fields.username.label`) live in `resources/lang/<locale>/admin.json`,
 * so key `k` is the catalogue message `admin.k`. Without a message, Refine's
 * English default is used.
 */
import type { I18nProvider } from '@refinedev/core'
import { formatMessage, type MessageValues } from '~/lib/format_message'
import type { Messages } from '~/lib/i18n'

/** Prefix of the panel's keys in the flattened catalogue (the file name). */
export const ADMIN_NAMESPACE = 'admin'

/** Creates the provider for `locale` and its loaded catalogue. */
export function createI18nProvider(locale: string, messages: Messages): I18nProvider {
  return {
    translate(key, options, defaultMessage) {
      const fallback = typeof options === 'string' ? options : defaultMessage
      const message = messages[`${ADMIN_NAMESPACE}.${key}`]
      if (message === undefined) return fallback ?? key
      const values = options && typeof options === 'object' ? (options as MessageValues) : undefined
      return formatMessage(message, values, locale)
    },
    // The language is chosen on the account page (cookie), like for the pages.
    changeLocale: () => undefined,
    getLocale: () => locale,
  }
}
