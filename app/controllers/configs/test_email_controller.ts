import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import MailService from '#services/mail/mail_service'
import { testEmailValidator } from '#validators/configs'

/** `POST /api/configs/admin/testEmail` (admin). */
@inject()
export default class TestEmailController {
  constructor(protected mail: MailService) {}

  /**
   * Sends the test mail to `email` with the current SMTP settings: 201 when
   * the server accepted it; 400 "SMTP is disabled" when mail is off; 400
   * with the mailer's message (the SMTP reply or connection error) when
   * sending failed.
   */
  async handle({ request, response }: HttpContext) {
    const { email } = await testEmailValidator.validate(request.body())
    await this.mail.sendTest(email)
    return response.created()
  }
}
