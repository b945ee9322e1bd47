import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import UserTransformer from '#transformers/user_transformer'
import UserService from '#services/users/user_service'
import { linkBase } from '#services/links/link_base'
import { requestOrigin } from '#http/request_origin'
import { ForbiddenException } from '#services/auth/auth_errors'
import MailService from '#services/mail/mail_service'
import { notificationUser } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'
import { createUserValidator, updateUserValidator } from '#validators/users'

/** 403 "Forbidden" (the answer of the `admin` middleware) unless UserPolicy lets the caller manage accounts. */
async function authorizeManage(ctx: HttpContext): Promise<void> {
  if (await ctx.bouncer.with('UserPolicy').denies('manage')) throw new ForbiddenException()
}

/** Admin routes of the users (`/api/users`). */
@inject()
export default class AdminUsersController {
  constructor(
    protected users: UserService,
    protected mail: MailService,
    protected notifications: NotificationRouter
  ) {}

  /** GET /api/users: 200 user[]. */
  async index(ctx: HttpContext) {
    await authorizeManage(ctx)
    const users = await this.users.list()
    return ctx.response.ok(users.map((user) => UserTransformer.toJSON(user)))
  }

  /**
   * POST /api/users `{username, email, password?, isAdmin?}`: 201 user.
   * Without a password, a random one is set and an invitation is mailed;
   * 400 when mail is not configured (checked before anything is created).
   * When the invitation cannot be sent, the user is not kept (400 with the
   * mailer's reason).
   */
  async store(ctx: HttpContext) {
    await authorizeManage(ctx)
    const fields = await createUserValidator.validate(ctx.request.body())
    const invite = fields.password === undefined
    if (invite) await this.mail.ensureEnabled()
    const password = fields.password ?? this.users.randomPassword()
    const user = await this.users.create({
      username: fields.username,
      email: fields.email,
      password,
      isAdmin: fields.isAdmin ?? false,
    })
    if (invite) {
      try {
        await this.mail.sendInvite(user.email, {
          url: `${await linkBase(requestOrigin(ctx.request))}/auth/signIn`,
          password,
          email: user.email,
        })
      } catch (error) {
        await user.delete()
        throw error
      }
      await this.notifications.emit('user.invited', {
        user: notificationUser(user),
        invitedBy: ctx.auth.getUserOrFail().id,
      })
    }
    return ctx.response.created(UserTransformer.toJSON(user))
  }

  /** PATCH /api/users/:id `{username?, email?, password?, isAdmin?}`: 200 user; 404 unknown id. */
  async update(ctx: HttpContext) {
    await authorizeManage(ctx)
    const user = await this.users.findOrFail(ctx.params.id)
    const fields = await updateUserValidator.validate(ctx.request.body())
    const guard = ctx.auth.use('pingvin')
    const keepSession = user.id === guard.getUserOrFail().id ? guard.sessionId : null
    const updated = await this.users.update(user, fields, keepSession)
    return ctx.response.ok(UserTransformer.toJSON(updated))
  }

  /** DELETE /api/users/:id: 200 the deleted user; 400 "User not found" / "Cannot delete the last admin user". */
  async destroy(ctx: HttpContext) {
    await authorizeManage(ctx)
    const user = await this.users.findOrFail(ctx.params.id, 'bad_request')
    const body = UserTransformer.toJSON(user)
    await this.users.delete(user)
    return ctx.response.ok(body)
  }
}
