/**
 * The mails of the share lifecycle (settings `email.*`):
 *
 * - share recipients: when a share is completed, each recipient gets
 *   `email.shareRecipientsSubject` / `email.shareRecipientsMessage` with
 *   `{creator}` (username, or "Someone"), `{shareUrl}` (`${appUrl}/s/<id>`),
 *   `{desc}` (a share without description: the template's lines holding
 *   `{desc}` are left out) and `{expires}` ("in 7 days (8 January 2025,
 *   12:00 UTC)", or "never");
 * - reverse-share owner: when a share made through a reverse share with
 *   `sendEmailNotification` is completed, its creator gets
 *   `email.reverseShareSubject` / `email.reverseShareMessage` with `{shareUrl}`
 *   (on the confirmed public address; its path alone until there is one).
 *
 * Mails are stored in the notification outbox before the response
 * (`MailService.queueTemplate`) and delivered by any instance with retries;
 * a delivery that fails for good is logged with the reason, listed for
 * admins, and never fails the request. One mail per recipient and completion. Sharing by
 * mail needs `email.enableShareEmailRecipients` and SMTP on: a share created
 * with recipients otherwise is refused with 400 before anything is stored.
 *
 * The placeholder words ("Someone", "never") and the relative time are English
 * like the default templates: the templates are the admin's text, in the
 * admin's language, not the visitor's.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type ReverseShare from '#models/reverse_share'
import type Share from '#models/share'
import ShareRecipient from '#models/share_recipient'
import User from '#models/user'
import { linkBase, linkForOthers } from '#services/links/link_base'
import ConfigService from '#services/config/config_service'
import MailService from '#services/mail/mail_service'
import { ShareApiException } from '#services/shares/share_errors'

/** Notification types of the share mails. */
export const SHARE_MAIL_TYPES = {
  recipient: 'share:recipient',
  reverseShareUsed: 'reverse_share:used',
} as const

/** `{creator}` of a share without a signed-in creator. */
export const UNKNOWN_CREATOR = 'Someone'
/** `{expires}` of a share that never expires. */
export const NEVER_EXPIRES_TEXT = 'never'

/** The 400 answered for recipients while sharing by mail is off. */
export function recipientsNotAllowed(): ShareApiException {
  return new ShareApiException(
    'Sharing files by email is disabled, so a share cannot have email recipients',
    400
  )
}

/** Units of the relative time, largest first. */
const RELATIVE_UNITS = ['years', 'months', 'days', 'hours', 'minutes', 'seconds'] as const

/**
 * How far `expiration` is from `now` in the locale's words ("in 7 days",
 * "dans 7 jours"), rounded to the nearest whole unit: the largest unit of
 * which at least 0.95 is left. The mail goes out when the upload is done,
 * a little after the share was created, so a 7-day share has 6.99 days
 * left: that is "in 7 days", not luxon's truncated "in 6 days"; a 20-day
 * share is "in 20 days", not "in 1 month".
 */
export function relativeTime(expiration: DateTime, now: DateTime, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' })
  const unit =
    RELATIVE_UNITS.find(
      (candidate) => Math.abs(expiration.diff(now, candidate).get(candidate)) >= 0.95
    ) ?? 'seconds'
  const value = Math.round(expiration.diff(now, unit).get(unit))
  return format.format(value, unit.slice(0, -1) as Intl.RelativeTimeFormatUnit)
}

/**
 * `{expires}`: relative (see `relativeTime`) and absolute ("in 7 days
 * (8 January 2025, 12:00 UTC)"), or "never". `locale` is the language of
 * the template (English, like the default templates).
 */
export function expiresText(
  expiration: DateTime | null,
  now: DateTime = DateTime.utc(),
  locale = 'en'
): string {
  if (!expiration) return NEVER_EXPIRES_TEXT
  const utc = expiration.toUTC().setLocale(locale)
  return `${relativeTime(utc, now, locale)} (${utc.toFormat("d LLLL yyyy, HH:mm 'UTC'")})`
}

/** Sends the share lifecycle's mails (see the module comment). */
@inject()
export default class ShareMailService {
  constructor(
    protected config: ConfigService,
    protected mail: MailService
  ) {}

  /** True when recipients get mails: `email.enableShareEmailRecipients` and SMTP (with an e-mail channel) are on. */
  async shareByMailEnabled(): Promise<boolean> {
    return (
      (await this.config.get('email.enableShareEmailRecipients')) && (await this.mail.isEnabled())
    )
  }

  /**
   * Refuses recipients while sharing by mail is off (400, see
   * `recipientsNotAllowed`). No recipients: always fine.
   */
  async assertRecipientsAllowed(recipients: readonly string[] | null | undefined): Promise<void> {
    if (!recipients || recipients.length === 0) return
    if (!(await this.shareByMailEnabled())) throw recipientsNotAllowed()
  }

  /**
   * `${linkBase}/s/<id>`: the short link of a share (`#services/links/link_base`:
   * `requestOrigin`, the address the requester's browser used, until the
   * public address is confirmed).
   */
  async shareUrl(shareId: string, requestOrigin: string | null): Promise<string> {
    return `${await linkBase(requestOrigin)}/s/${encodeURIComponent(shareId)}`
  }

  /**
   * Queues a mail to every recipient of `share` (one mail each), when
   * sharing by mail is on. Resolves to how many mails were queued.
   */
  async sendRecipientMails(share: Share, requestOrigin: string | null): Promise<number> {
    const recipients = await ShareRecipient.query().where('share_id', share.id)
    if (recipients.length === 0 || !(await this.shareByMailEnabled())) return 0
    const creator = share.creatorId ? await User.find(share.creatorId) : null
    const variables = {
      creator: creator?.username ?? UNKNOWN_CREATOR,
      shareUrl: await this.shareUrl(share.id, requestOrigin),
      desc: share.description || null,
      expires: expiresText(share.expiration),
    }
    for (const recipient of recipients) {
      await this.mail.queueTemplate(
        SHARE_MAIL_TYPES.recipient,
        recipient.email,
        { subjectKey: 'email.shareRecipientsSubject', textKey: 'email.shareRecipientsMessage' },
        variables,
        {
          eventId: `${SHARE_MAIL_TYPES.recipient}:${share.id}`,
          log: { shareId: share.id, mail: SHARE_MAIL_TYPES.recipient },
        }
      )
    }
    return recipients.length
  }

  /**
   * Queues a mail to the creator of `reverseShare` saying that `share` was
   * uploaded through it, when its `sendEmailNotification` is on and SMTP is
   * enabled. Resolves to whether a mail was queued (the completed reply's
   * `notifyReverseShareCreator`).
   */
  async notifyReverseShareCreator(share: Share, reverseShare: ReverseShare): Promise<boolean> {
    if (!reverseShare.sendEmailNotification || !(await this.mail.isEnabled())) return false
    const owner = await User.find(reverseShare.creatorId)
    if (!owner) return false
    // The confirmed address, never the uploader's request: its Host must not choose where the owner's link points.
    const variables = { shareUrl: await linkForOthers(`/s/${encodeURIComponent(share.id)}`) }
    await this.mail.queueTemplate(
      SHARE_MAIL_TYPES.reverseShareUsed,
      owner.email,
      { subjectKey: 'email.reverseShareSubject', textKey: 'email.reverseShareMessage' },
      variables,
      {
        eventId: `${SHARE_MAIL_TYPES.reverseShareUsed}:${share.id}`,
        log: {
          shareId: share.id,
          reverseShareId: reverseShare.id,
          mail: SHARE_MAIL_TYPES.reverseShareUsed,
        },
      }
    )
    return true
  }
}
