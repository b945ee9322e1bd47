import vine from '@vinejs/vine'
import { emailRule, accountMessages } from '#validators/auth'

/**
 * Body of `PATCH /api/configs/admin`: `[{key, value}]`. `value` may be any
 * JSON value (its type is checked against the variable by the config
 * service) or null (= reset, like `""`). Unknown properties are dropped.
 */
export const updateConfigVariablesValidator = vine.create(
  vine.array(
    vine.object({
      key: vine.string().trim().minLength(1),
      value: vine.any().nullable(),
    })
  )
)

/**
 * Body of `POST /api/configs/admin/testEmail`: `{ email }`, the recipient,
 * with the account e-mail rule (a lone surrogate is a 400, not a 500).
 */
export const testEmailValidator = vine.create(vine.object({ email: emailRule() }))
testEmailValidator.messagesProvider = accountMessages
