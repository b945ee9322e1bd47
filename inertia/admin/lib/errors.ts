/**
 * The text to show for a failed API call in the panel: the admin routes'
 * own messages translated through `admin.json`, then everything the pages
 * already know (`~/lib/validation` errorText: account messages, 429,
 * network, unknown).
 */
import { useMemo } from 'react'
import { isApiError } from '~/lib/api'
import { useTranslate, type TranslateFn } from '~/lib/i18n'
import { errorText } from '~/lib/validation'

/** Messages of the admin routes with a translation. */
const ADMIN_MESSAGES: Record<string, string> = {
  'Cannot remove the admin rights of the last admin user': 'admin.errors.lastAdminDemote',
  'Cannot delete the last admin user': 'admin.errors.lastAdminDelete',
  'SMTP is disabled': 'admin.errors.smtpDisabled',
  'The logo file is required': 'admin.errors.logoMissing',
  'The logo must be a PNG image': 'admin.errors.logoNotPng',
  'The logo must be square (1:1)': 'admin.errors.logoNotSquare',
}

/** See the module comment. */
export function adminErrorText(t: TranslateFn, error: unknown): string {
  if (isApiError(error) && error.statusCode >= 400 && error.statusCode < 500) {
    const known = error.messages.map((message) => ADMIN_MESSAGES[message]).filter(Boolean)
    if (known.length === error.messages.length && known.length > 0)
      return known.map((key) => t(key)).join(' ')
  }
  return errorText(t, error)
}

/** `adminErrorText` bound to the current language. */
export function useAdminErrorText(): (error: unknown) => string {
  const t = useTranslate()
  return useMemo(() => (error: unknown) => adminErrorText(t, error), [t])
}
