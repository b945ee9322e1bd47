/**
 * Body of `POST /api/users/me/apiTokens` (ext): `{name, expiresAt?}`.
 * `expiresAt` is an ISO-8601 date-time in the future, or null/absent for a
 * token that never expires.
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { DateTime } from 'luxon'
import { LATEST_EXPIRATION } from '#services/shares/expiration'

const futureIsoDate = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const when = DateTime.fromISO(value, { zone: 'utc' })
  if (!when.isValid) {
    field.report('expiresAt must be an ISO-8601 date', 'isoDate', field)
  } else if (when <= DateTime.utc()) {
    field.report('expiresAt must be in the future', 'futureDate', field)
  } else if (when > LATEST_EXPIRATION) {
    // MySQL's DATETIME ends with the year 9999: a later date would be a 500 there.
    field.report('expiresAt must not be later than 9999-12-31', 'storableDate', field)
  }
})

/** `POST /api/users/me/apiTokens`. */
export const createApiTokenValidator = vine.create({
  name: vine.string().trim().minLength(1).maxLength(100),
  expiresAt: vine.string().use(futureIsoDate()).nullable().optional(),
})

createApiTokenValidator.messagesProvider = new SimpleMessagesProvider({
  required: '{{ field }} should not be empty',
  string: '{{ field }} must be a string',
  minLength: '{{ field }} should not be empty',
  maxLength: '{{ field }} must be shorter than or equal to {{ max }} characters',
})
