/**
 * Form validation for the pages with the messages of the catalogue
 * (`resources/lang/<locale>/validation.json`): 'This field is required',
 * 'Invalid email address', 'Must be at least {length} characters', ...
 * and the translation of the API's error messages.
 *
 * ```tsx
 * const rules = useValidationRules()
 * <Form.Item name="email" rules={rules.email}>
 * ```
 */
import { useMemo } from 'react'
import type { FormRule } from 'antd'
import { useTranslate, type TranslateFn } from '~/lib/i18n'
import { isApiError } from '~/lib/api'

/** Bounds the server checks too (app/validators/auth.ts, api_tokens.ts). */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 32,
  passwordMin: 8,
  totpDigits: 6,
  tokenNameMax: 100,
} as const

/** Letters, digits, `.` and `_`: the username rule of app/validators/auth.ts. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._]+$/

/** Single rules, each with its catalogue message. */
export function validationRules(t: TranslateFn) {
  return {
    required: (): FormRule => ({
      required: true,
      whitespace: true,
      message: t('validation.required'),
    }),
    email: (): FormRule => ({ type: 'email', message: t('validation.email') }),
    min: (length: number): FormRule => ({
      min: length,
      message: t('validation.minLength', { length }),
    }),
    max: (length: number): FormRule => ({
      max: length,
      message: t('validation.maxLength', { length }),
    }),
    exact: (length: number): FormRule => ({
      len: length,
      message: t('validation.exactLength', { length }),
    }),
    number: (): FormRule => ({ pattern: /^\d*$/, message: t('validation.number') }),
    username: (): FormRule => ({ pattern: USERNAME_PATTERN, message: t('validation.username') }),
  }
}

/** Rule sets of the account forms. */
export interface FieldRules {
  required: FormRule[]
  email: FormRule[]
  username: FormRule[]
  /** A new password (at least 8 characters). */
  password: FormRule[]
  /** The current password: only required. */
  currentPassword: FormRule[]
  /** A 6-digit TOTP code. */
  totpCode: FormRule[]
  /** Optional e-mail or username on sign-in: required only. */
  identifier: FormRule[]
  tokenName: FormRule[]
}

/** The rule sets of the account forms in the page's language. */
export function useValidationRules(): FieldRules {
  const t = useTranslate()
  return useMemo(() => {
    const r = validationRules(t)
    return {
      required: [r.required()],
      email: [r.required(), r.email()],
      username: [r.required(), r.min(LIMITS.usernameMin), r.max(LIMITS.usernameMax), r.username()],
      password: [r.required(), r.min(LIMITS.passwordMin)],
      currentPassword: [r.required()],
      totpCode: [r.required(), r.number(), r.exact(LIMITS.totpDigits)],
      identifier: [r.required()],
      tokenName: [r.required(), r.max(LIMITS.tokenNameMax)],
    }
  }, [t])
}

/** API messages with a translation (the English text is the server's). */
const SERVER_MESSAGES: Record<string, string> = {
  'Wrong email or password': 'validation.server.wrongCredentials',
  'Email or username is required': 'validation.server.identifierRequired',
  'Invalid code': 'validation.server.invalidCode',
  'Invalid password': 'validation.server.invalidPassword',
  'Invalid login token': 'validation.server.invalidLoginToken',
  'Login token expired': 'validation.server.loginTokenExpired',
  'A user with this email already exists': 'validation.server.emailTaken',
  'A user with this username already exists': 'validation.server.usernameTaken',
  'Registration is not allowed': 'validation.server.registrationDisabled',
  'Token invalid or expired': 'validation.server.resetTokenInvalid',
  'TOTP is already enabled': 'validation.server.totpAlreadyEnabled',
  'TOTP is not enabled': 'validation.server.totpNotEnabled',
  'TOTP is not in progress': 'validation.server.totpNotInProgress',
  'Cannot delete the last admin user': 'validation.server.lastAdmin',
  'Enter your password to delete your account': 'validation.server.deletePasswordRequired',
  'Enter your username to delete your account': 'validation.server.deleteUsernameRequired',
  'The username does not match': 'validation.server.usernameMismatch',
  'An API token with this name already exists': 'validation.server.tokenNameTaken',
}

/** Form fields an API message belongs to (shown at the field rather than above the form). */
const SERVER_MESSAGE_FIELDS: Record<string, string> = {
  'A user with this email already exists': 'email',
  'A user with this username already exists': 'username',
  'Invalid code': 'code',
  'Invalid password': 'password',
  'An API token with this name already exists': 'name',
}

/** The text to show for an API message in the page's language. */
export function translateServerMessage(t: TranslateFn, message: string): string {
  const key = SERVER_MESSAGES[message]
  return key ? t(key) : message
}

/** The field a server message belongs to, if any (`email`, `username`, `code`, `password`, `name`). */
export function fieldOfServerMessage(message: string): string | undefined {
  return SERVER_MESSAGE_FIELDS[message]
}

/**
 * What to tell the user about a failed call: the translated API message(s),
 * "too many attempts" for 429, a network message when the server was not
 * reached, else 'An unknown error occurred'.
 */
export function errorText(t: TranslateFn, error: unknown): string {
  if (!isApiError(error)) return t('validation.server.unknown')
  if (error.statusCode === 0) return t('validation.server.network')
  if (error.statusCode === 429) {
    return error.retryAfter
      ? t('validation.server.tooManyRequestsRetry', { seconds: error.retryAfter })
      : t('validation.server.tooManyRequests')
  }
  if (error.statusCode >= 500) return t('validation.server.unknown')
  const text = error.messages
    .filter(Boolean)
    .map((message) => translateServerMessage(t, message))
    .join(' ')
  return text || t('validation.server.unknown')
}

/** `errorText` bound to the page's language. */
export function useErrorText(): (error: unknown) => string {
  const t = useTranslate()
  return useMemo(() => (error: unknown) => errorText(t, error), [t])
}
