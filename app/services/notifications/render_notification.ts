/**
 * Renders the subject and text of a routed event in a language, from the
 * i18n catalogues (resources/lang/<locale>/notification_events.json, English
 * as the fallback): `notification_events.<event>.subject` and `.text`, ICU
 * messages whose arguments are built here from the payload (names, URLs,
 * dates and sizes formatted for that language).
 */
import i18nManager from '@adonisjs/i18n/services/main'
import type {
  NotificationEventId,
  NotificationEventPayloads,
  NotificationShare,
  RenderedNotification,
} from '#extensions/notifications/main'
import { DEFAULT_LOCALE, LOCALES } from '#start/locales'

/** `locale` when Tern speaks it, else the default language. */
export function notificationLocale(locale: string | null | undefined): string {
  return LOCALES.some((known) => known.code === locale) ? locale! : DEFAULT_LOCALE
}

/** An ISO date as "8 January 2025, 12:00 UTC" in `locale`. */
function formatDate(iso: string | null | undefined, locale: string): string {
  if (!iso) return ''
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const text = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date)
  return `${text} UTC`
}

/** A size in bytes as "1.5 MB" in `locale`. */
function formatSize(bytes: number | undefined, locale: string): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return ''
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const
  let value = Math.max(0, bytes)
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value)
}

/** The ICU arguments of a share. */
function shareArgs(share: NotificationShare, locale: string) {
  return {
    shareName: share.name || share.id,
    shareUrl: share.url,
    expiresAt: formatDate(share.expiresAt, locale),
    hasExpiry: share.expiresAt ? 'yes' : 'no',
    fileCount: share.fileCount ?? 0,
    size: formatSize(share.size, locale),
  }
}

/** The ICU arguments of `event`'s messages. */
function argumentsOf(
  event: NotificationEventId,
  payload: Record<string, any>,
  locale: string
): Record<string, string | number> {
  const args: Record<string, string | number> = {}
  if (payload.share) Object.assign(args, shareArgs(payload.share, locale))
  if (payload.reverseShare) {
    args.remainingUses = payload.reverseShare.remainingUses ?? -1
    args.reverseShareExpiresAt = formatDate(payload.reverseShare.expiresAt, locale)
  }
  if (payload.user) {
    args.username = payload.user.username
    args.email = payload.user.email
  }
  switch (event) {
    case 'share.downloaded':
      args.fileName = payload.file?.name ?? ''
      args.whole = payload.file ? 'no' : 'yes'
      break
    case 'share.deleted':
      args.by = payload.by
      break
    case 'auth.new_device_sign_in':
      args.device = payload.device || '?'
      args.ip = payload.ip ?? '?'
      args.signedInAt = formatDate(payload.signedInAt, locale)
      break
  }
  return args
}

/** See the module comment. */
export function renderNotification<E extends NotificationEventId>(
  event: E,
  payload: NotificationEventPayloads[E],
  locale: string
): RenderedNotification {
  const language = notificationLocale(locale)
  const i18n = i18nManager.locale(language)
  const args = argumentsOf(event, payload as Record<string, any>, language)
  return {
    subject: i18n.t(`notification_events.${event}.subject`, args).trim(),
    // An optional last line (e.g. the uses left of a reverse share) may render empty.
    text: i18n.t(`notification_events.${event}.text`, args).trim(),
  }
}
