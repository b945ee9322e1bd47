/**
 * The core mail API: every feature that sends an e-mail goes through
 * `MailService` (resolve or inject it). Mails are rendered from the `email.*` templates and
 * delivered through the `email` notification channel (plugin `email`, SMTP
 * configured from the `smtp.*` settings on each send).
 *
 * ```ts
 * import MailService from '#services/mail/mail_service'
 *
 * const mailService = await app.container.make(MailService) // or inject it
 * await mailService.ensureEnabled()                     // 400 "SMTP is disabled" when mail cannot be sent
 * await mailService.sendInvite(user.email, { url, password, email: user.email })
 * await mailService.queueTemplate(type, to, template, variables, { eventId })  // durable: the outbox delivers it
 * ```
 *
 * Mails caused by a request go through the outbox (`queue`, `queueTemplate`):
 * stored before the answer, delivered by any instance, retried with back-off.
 * The admin's test mail and invitations are sent at once (`send*`), so the
 * admin sees the SMTP error.
 *
 * Failures: `MailDisabledException` (400, "SMTP is disabled") when SMTP is
 * off or no e-mail channel is enabled; `MailDeliveryException` (400, the
 * mailer's reason) when the send failed. Sends are recorded by
 * `notifications.fake()` like any notification (SMTP must still be enabled).
 */
import { inject } from '@adonisjs/core'
import { notifications, type NotificationManager } from '#extensions/notifications/main'
import ConfigService, { type ConfigSnapshot } from '#services/config/config_service'
import { MailDeliveryException, MailDisabledException } from '#services/mail/mail_errors'
import { renderTemplate, type TemplateVariables } from '#services/mail/render_template'
import OutboxService from '#services/outbox/outbox_service'
import {
  deliveryFailureReason,
  MAIL_CHANNEL,
  MAIL_TYPES,
  PASSWORD_RESET_CHANNEL,
  TEST_MAIL_TEMPLATE,
  type MailTemplate,
  type OutgoingMail,
  type QueueOptions,
} from '#services/mail/mail_types'

export { MailDeliveryException, MailDisabledException } from '#services/mail/mail_errors'
export { renderTemplate, type TemplateVariables } from '#services/mail/render_template'

export * from '#services/mail/mail_types'

/** `variables` plus `appName` and `appUrl` from `config` (the caller's values win). */
function withAppVariables(config: ConfigSnapshot, variables: TemplateVariables): TemplateVariables {
  return {
    appName: config.get('general.appName'),
    appUrl: config.get('general.appUrl'),
    ...variables,
  }
}

/** See the module comment. */
@inject()
export default class MailService {
  /** The notification channels (the `email` channel delivers the mails). */
  protected channels: NotificationManager = notifications

  constructor(
    protected config: ConfigService,
    protected outbox: OutboxService
  ) {}

  /** True when `smtp.enabled` is on and the e-mail channel is registered (plugin enabled). */
  async isEnabled(): Promise<boolean> {
    if (!this.channels.has(MAIL_CHANNEL)) return false
    return this.config.get('smtp.enabled')
  }

  /** Throws `MailDisabledException` (400 "SMTP is disabled") unless `isEnabled()`. */
  async ensureEnabled(): Promise<void> {
    if (!this.channels.has(MAIL_CHANNEL)) {
      throw new MailDisabledException('SMTP is disabled: no e-mail plugin is enabled')
    }
    if (!(await this.config.get('smtp.enabled'))) throw new MailDisabledException()
  }

  /**
   * Sends one rendered mail. Throws `MailDisabledException` when mail is off,
   * `MailDeliveryException` (400, the mailer's reason, the error as `cause`)
   * when the SMTP server refused it or could not be reached.
   */
  async send(mail: OutgoingMail): Promise<void> {
    await this.ensureEnabled()
    await this.#deliver(mail)
  }

  /** Hands `mail` to the channel; failures become `MailDeliveryException`. */
  async #deliver(mail: OutgoingMail): Promise<void> {
    try {
      await this.channels.send(MAIL_CHANNEL, {
        type: mail.type,
        to: Array.isArray(mail.to) ? mail.to : [mail.to],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        data: mail.data,
      })
    } catch (error) {
      throw new MailDeliveryException(deliveryFailureReason(error), { cause: error })
    }
  }

  /**
   * Renders the templates stored in the config variables `subjectKey` and
   * `textKey` with `variables` (plus `{appName}` and `{appUrl}`) into a mail
   * to `to` (the variables also go along as `data`).
   */
  async renderTemplateMail(
    type: string,
    to: string | string[],
    template: MailTemplate,
    variables: TemplateVariables
  ) {
    const config = await this.config.snapshot()
    const all = withAppVariables(config, variables)
    return {
      type,
      to,
      subject: renderTemplate(String(config.get(template.subjectKey)), all),
      text: renderTemplate(String(config.get(template.textKey)), all),
      data: { ...variables },
    } satisfies OutgoingMail
  }

  /** Renders (see `renderTemplateMail`) and sends at once. Failures as `send`. */
  async sendTemplate(
    type: string,
    to: string | string[],
    template: MailTemplate,
    variables: TemplateVariables
  ) {
    await this.ensureEnabled()
    await this.#deliver(await this.renderTemplateMail(type, to, template, variables))
  }

  /**
   * Stores one rendered mail in the durable outbox (after `ensureEnabled`):
   * any instance delivers it, retried with back-off; one that keeps failing
   * is listed for admins. Resolves once stored, before any SMTP traffic.
   */
  async queue(mail: OutgoingMail, options: QueueOptions): Promise<void> {
    await this.ensureEnabled()
    await this.store(mail, options)
  }

  /**
   * `queue` without the `ensureEnabled` check, for callers inside a
   * transaction that checked first (a configuration read inside it would
   * wait for SQLite's single connection).
   */
  async store(mail: OutgoingMail, options: QueueOptions): Promise<void> {
    const to = Array.isArray(mail.to) ? mail.to : [mail.to]
    const notification = {
      type: mail.type,
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      data: mail.data,
    }
    await this.outbox.enqueue({
      eventId: options.eventId,
      eventType: mail.type,
      channel: MAIL_CHANNEL,
      target: options.target ?? to.join(', '),
      payload: { notification, log: options.log },
      client: options.client,
    })
  }

  /** Renders (see `renderTemplateMail`) and queues (see `queue`). */
  async queueTemplate(
    type: string,
    to: string | string[],
    template: MailTemplate,
    variables: TemplateVariables,
    options: QueueOptions
  ): Promise<void> {
    await this.ensureEnabled()
    await this.store(await this.renderTemplateMail(type, to, template, variables), options)
  }

  /**
   * The password-reset mail (`email.resetPasswordSubject` /
   * `email.resetPasswordMessage`; `{url}` = `${appUrl}/auth/resetPassword/<token>`).
   */
  sendPasswordReset(to: string, variables: { url: string }): Promise<void> {
    return this.sendTemplate(
      MAIL_TYPES.passwordReset,
      to,
      { subjectKey: 'email.resetPasswordSubject', textKey: 'email.resetPasswordMessage' },
      variables
    )
  }

  /**
   * The invitation mail (`email.inviteSubject` / `email.inviteMessage`;
   * `{url}` = `${appUrl}/auth/signIn`, `{password}`, `{email}`).
   */
  sendInvite(
    to: string,
    variables: { url: string; password: string; email: string }
  ): Promise<void> {
    return this.sendTemplate(
      MAIL_TYPES.invite,
      to,
      { subjectKey: 'email.inviteSubject', textKey: 'email.inviteMessage' },
      variables
    )
  }

  /**
   * The admin's test mail (`POST /api/configs/admin/testEmail`): awaited;
   * throws `MailDisabledException` or `MailDeliveryException` with the
   * SMTP error text.
   */
  async sendTest(to: string): Promise<void> {
    await this.ensureEnabled()
    const variables = withAppVariables(await this.config.snapshot(), {})
    await this.#deliver({
      type: MAIL_TYPES.test,
      to,
      subject: renderTemplate(TEST_MAIL_TEMPLATE.subject, variables),
      text: renderTemplate(TEST_MAIL_TEMPLATE.text, variables),
    })
  }

  /** Resolves once no password-reset request and no queued mail is pending in the outbox (tests). */
  async idle(): Promise<void> {
    await this.outbox.idle(PASSWORD_RESET_CHANNEL)
    await this.outbox.idle(MAIL_CHANNEL)
  }
}
