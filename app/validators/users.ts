/**
 * Bodies of the `/api/users` routes, with the account rules
 * and messages of #validators/auth. Unknown properties are dropped.
 */
import vine from '@vinejs/vine'
import { accountMessages, emailRule, passwordRule, usernameRule } from '#validators/auth'

function withMessages<T extends { messagesProvider: unknown }>(validator: T): T {
  validator.messagesProvider = accountMessages
  return validator
}

/** `PATCH /api/users/me`: `{username?, email?}`. */
export const updateOwnUserValidator = withMessages(
  vine.create({ username: usernameRule().optional(), email: emailRule().optional() })
)

/** `POST /api/users` (admin): `{username, email, password?, isAdmin?}`. */
export const createUserValidator = withMessages(
  vine.create({
    username: usernameRule(),
    email: emailRule(),
    password: passwordRule().optional(),
    isAdmin: vine.boolean({ strict: true }).optional(),
  })
)

/** `PATCH /api/users/:id` (admin): `{username?, email?, password?, isAdmin?}`. */
export const updateUserValidator = withMessages(
  vine.create({
    username: usernameRule().optional(),
    email: emailRule().optional(),
    password: passwordRule().optional(),
    isAdmin: vine.boolean({ strict: true }).optional(),
  })
)

/**
 * `DELETE /api/users/me` (ext): the confirmation of a signed-in session,
 * `{password}` for an account with a password, `{username}` for a
 * social-only account. A personal API token needs neither (Pingvin's form).
 */
export const deleteOwnAccountValidator = withMessages(
  vine.create({
    password: vine.string().maxLength(1024).optional(),
    username: vine.string().trim().maxLength(1024).optional(),
  })
)
