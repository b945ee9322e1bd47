/**
 * Bodies of the `/api/auth/*` routes. Messages name the
 * field, in the words Pingvin's API used, so existing clients show the same
 * text: username 3-32 letters, digits, "." and "_"; a valid e-mail address;
 * a password of at least 8 characters. Unknown properties are dropped.
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { wellFormed } from '#validators/rules'

/** Username rule: 3-32 characters of letters, digits, "." and "_". */
export const USERNAME_PATTERN = /^[a-zA-Z0-9._]+$/

/** Validation messages shared by the account validators. */
export const accountMessages = new SimpleMessagesProvider({
  'required': '{{ field }} should not be empty',
  'string': '{{ field }} must be a string',
  'boolean': '{{ field }} must be a boolean value',
  'email': '{{ field }} must be an email',
  'minLength': '{{ field }} must be longer than or equal to {{ min }} characters',
  'maxLength': '{{ field }} must be shorter than or equal to {{ max }} characters',
  'username.regex': 'Username can only contain letters, numbers, dots, and underscores',
})

/** A username (3-32 letters, digits, "." and "_"). */
export const usernameRule = () =>
  vine.string().trim().minLength(3).maxLength(32).regex(USERNAME_PATTERN)
/** An e-mail address (well-formed text first: validator.js throws on a lone surrogate). */
export const emailRule = () => vine.string().trim().maxLength(255).use(wellFormed()).email()
/** A new password (at least 8 characters). */
export const passwordRule = () => vine.string().minLength(8).maxLength(1024)

function withMessages<T extends { messagesProvider: unknown }>(validator: T): T {
  validator.messagesProvider = accountMessages
  return validator
}

/** `POST /api/auth/signUp`: `{email, username, password}`. */
export const signUpValidator = withMessages(
  vine.create({ email: emailRule(), username: usernameRule(), password: passwordRule() })
)

/** `POST /api/auth/signIn`: `{email?, username?, password}` (one of email/username is checked after). */
export const signInValidator = withMessages(
  vine.create({
    email: vine.string().trim().maxLength(255).optional(),
    username: vine.string().trim().maxLength(255).optional(),
    password: vine.string().maxLength(1024),
  })
)

/** `POST /api/auth/signIn/totp`: `{totp, loginToken}`. */
export const signInTotpValidator = withMessages(
  vine.create({
    totp: vine.string().trim().maxLength(16),
    loginToken: vine.string().maxLength(256),
  })
)

/** `POST /api/auth/resetPassword`: `{token, password}`. */
export const resetPasswordValidator = withMessages(
  vine.create({ token: vine.string().maxLength(256), password: passwordRule() })
)

/** `PATCH /api/auth/password`: `{oldPassword?, password}`. */
export const changePasswordValidator = withMessages(
  vine.create({ oldPassword: vine.string().maxLength(1024).optional(), password: passwordRule() })
)

/** `POST /api/auth/totp/enable`: `{password}`. */
export const enableTotpValidator = withMessages(
  vine.create({ password: vine.string().maxLength(1024) })
)

/** `POST /api/auth/totp/verify` and `/disable`: `{code, password}`. */
export const totpCodeValidator = withMessages(
  vine.create({ code: vine.string().trim().maxLength(16), password: vine.string().maxLength(1024) })
)
