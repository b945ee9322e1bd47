/**
 * Request validation of the reverse-shares API (`/api/reverseShares*`). Unknown
 * properties are dropped; failures answer 400 with an array of messages.
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { EXPIRATION_PATTERN } from '#api/expiration'
import { storableExpiration } from '#validators/rules'

/** A size in bytes as a decimal string, at least 1 (`"1000000"`). */
export const BYTE_SIZE_PATTERN = /^[1-9]\d{0,19}$/

/** Body of `POST /api/reverseShares`. */
export const createReverseShareValidator = vine.create({
  shareExpiration: vine.string().trim().regex(EXPIRATION_PATTERN).use(storableExpiration()),
  maxShareSize: vine.string().trim().regex(BYTE_SIZE_PATTERN),
  maxUseCount: vine
    .number({ strict: true })
    .withoutDecimals()
    .positive()
    .max(1_000_000_000)
    .nullable()
    .optional(),
  sendEmailNotification: vine.boolean({ strict: true }).optional(),
  simplified: vine.boolean({ strict: true }).optional(),
  publicAccess: vine.boolean({ strict: true }).optional(),
})

createReverseShareValidator.messagesProvider = new SimpleMessagesProvider({
  'shareExpiration.regex':
    'shareExpiration must be "never" or "<number>-<unit>" with unit minute(s), hour(s), day(s), week(s), month(s) or year(s)',
  'maxShareSize.regex': 'maxShareSize must be a number of bytes (a string of digits, at least 1)',
  'maxShareSize.string': 'maxShareSize must be a number of bytes (a string of digits, at least 1)',
})
