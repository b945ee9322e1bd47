/**
 * Password reset by e-mail: a request always gets the same
 * neutral reply after storing the same outbox row, whatever the address;
 * the work (lookup, token, mail) happens later on any instance, so neither
 * the reply nor its timing tells whether the address exists, and a crash
 * after the reply loses nothing. The link `${general.appUrl}/auth/resetPassword/<token>` is valid one
 * hour and works once; only the token's digest is stored.
 *
 * The link is built from the confirmed public address only
 * (`#services/links/link_base`): until an admin confirmed it, no reset mail is
 * sent at all (logged), as neither the placeholder `http://localhost:3000`
 * nor the request's Host header (anyone may forge it, and would receive the
 * victim's token) is an address to mail a secret to. The sign-in and reset
 * pages say so meanwhile (`appUrlConfirmed` of the shared page props).
 */
import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import PasswordResetToken from '#models/password_reset_token'
import User from '#models/user'
import SocialAccount from '#models/social_account'
import { passwordVerifiers } from '#extensions/auth/password_verifiers'
import { BadRequestException } from '#services/auth/auth_errors'
import SessionService from '#services/auth/session_service'
import { generateToken, hashToken } from '#services/auth/tokens'
import { confirmedAppUrl } from '#services/links/link_base'
import MailService, { MAIL_TYPES, PASSWORD_RESET_CHANNEL } from '#services/mail/mail_service'
import { outbox, type OutboxDelivery } from '#services/outbox/outbox_service'
import { OUTBOX_TABLE } from '#services/outbox/outbox_store'
import { notificationUser } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'
import UserService from '#services/users/user_service'
import { isWellFormedText } from '#validators/rules'

/** Lifetime of a reset link. */
export const PASSWORD_RESET_LIFETIME_MINUTES = 60

/** Whether `email` could be the address of an account (users.email: at most 255 characters, `local@domain`). */
function couldBeAccountEmail(email: string): boolean {
  return email.length <= 255 && isWellFormedText(email) && /^[^\s@]+@[^\s@]+$/.test(email.trim())
}

/** Whether `user` is linked to a directory of an enabled password-verifier plugin (LDAP). */
async function signsInThroughDirectory(user: User): Promise<boolean> {
  const providers = passwordVerifiers.list().map((verifier) => verifier.id)
  if (providers.length === 0) return false
  return (
    (await SocialAccount.query()
      .where('userId', user.id)
      .whereIn('provider', providers)
      .first()) !== null
  )
}

/** Requests and performs password resets. Resolve it from the container or inject it. */
@inject()
export default class PasswordResetService {
  constructor(
    protected sessions: SessionService,
    protected mail: MailService,
    protected users: UserService,
    protected notifications: NotificationRouter
  ) {}

  /**
   * Stores a reset request for `email` in the notification outbox and
   * resolves (same work for every address). Later, on any instance: when the
   * address belongs to a user and mail is enabled, a new token replaces the
   * user's older ones and the link is mailed (see `handleRequest`).
   */
  async request(email: string): Promise<void> {
    // An address no account can have (syntax is no secret) is not kept: bursts of junk cost no rows.
    if (!couldBeAccountEmail(email)) return
    await outbox.enqueue({
      eventId: randomUUID(),
      eventType: 'auth:password_reset_request',
      channel: PASSWORD_RESET_CHANNEL,
      payload: { email },
    })
  }

  /**
   * The outbox handler of a stored request: the token and the mail's outbox
   * row are written in one transaction, so a crash leaves both or neither;
   * a request whose mail row exists already (crash before the request row
   * was settled) is done, so a mailed link is never replaced by a retry.
   * The `auth.password_reset_requested` notification is stored with them
   * (only when a link was issued: not for unknown addresses or without mail).
   */
  async handleRequest(delivery: OutboxDelivery): Promise<void> {
    const user = await this.users.findByEmail(String(delivery.payload?.email ?? ''))
    if (!user) return
    if (await signsInThroughDirectory(user)) {
      // As Pingvin Share: a local password would outlive the directory account.
      logger.info(
        { userId: user.id },
        'password reset refused: the account signs in through a directory (LDAP)'
      )
      return
    }
    if (!(await this.mail.isEnabled())) {
      logger.warn({ userId: user.id }, 'password reset requested but mail is not configured')
      return
    }
    const base = await confirmedAppUrl()
    if (base === null) {
      logger.warn(
        { userId: user.id },
        'password reset not sent: the public address (general.appUrl) is not confirmed yet; an admin confirms it in the admin panel'
      )
      return
    }
    const eventId = `password_reset:${delivery.id}`
    // Checked outside the transaction (the claim makes this worker the only one on this request):
    // on SQLite a transaction that reads first cannot take the write lock while another instance writes.
    if (await db.from(OUTBOX_TABLE).where('event_id', eventId).select('id').first()) return
    const token = generateToken()
    // The link is a secret: the outbox forgets the mail once delivered and never shows its body.
    const mail = await this.mail.renderTemplateMail(
      MAIL_TYPES.passwordReset,
      user.email,
      { subjectKey: 'email.resetPasswordSubject', textKey: 'email.resetPasswordMessage' },
      { url: `${base}/auth/resetPassword/${token}` }
    )
    const olderRows = await PasswordResetToken.query().where('userId', user.id).select('id')
    const older = olderRows.map((row) => row.id)
    await db.transaction(async (trx) => {
      // By primary key: a range delete on user_id takes gap locks on MySQL, and two instances
      // resetting two users at once would deadlock. Writes only, for SQLite (see above).
      if (older.length > 0)
        await PasswordResetToken.query({ client: trx }).whereIn('id', older).delete()
      await PasswordResetToken.create(
        {
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: DateTime.utc().plus({ minutes: PASSWORD_RESET_LIFETIME_MINUTES }),
        },
        { client: trx }
      )
      await this.mail.store(mail, {
        eventId,
        client: trx,
        log: { userId: user.id, action: 'password reset' },
      })
      // Routed besides the mail (never the link): "someone asked to reset your password".
      await this.notifications.emit(
        'auth.password_reset_requested',
        { user: notificationUser(user) },
        { client: trx, userId: user.id }
      )
    })
  }

  /**
   * Sets a new password with a reset token. The token is used up, and every
   * session of the user ends. Throws 400 "Token invalid or expired".
   */
  async reset(token: string, password: string): Promise<User> {
    const row = await PasswordResetToken.findBy('tokenHash', hashToken(token))
    if (!row) throw new BadRequestException('Token invalid or expired')
    const deleted = await db.from(PasswordResetToken.table).where('id', row.id).delete()
    const used = Number(Array.isArray(deleted) ? deleted[0] : deleted) === 1
    if (!used || row.expiresAt <= DateTime.utc()) {
      throw new BadRequestException('Token invalid or expired')
    }
    const user = await User.find(row.userId)
    if (!user) throw new BadRequestException('Token invalid or expired')
    user.password = password
    await user.save()
    await PasswordResetToken.query().where('userId', user.id).delete()
    await this.sessions.revokeAllOf(user.id)
    return user
  }
}
