/**
 * Request validation of the shares API (`/api/shares*`). Unknown properties
 * are dropped; failures answer 400 with an array of messages.
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { EXPIRATION_PATTERN } from '#api/expiration'
import {
  positiveIntegerRule,
  queryIntegerRule,
  storableExpiration,
  wellFormed,
} from '#validators/rules'

/** Share ids: 3-50 chars of `[A-Za-z0-9_-]`. */
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]+$/

/** Messages of the share rules the contract words itself; pass as `messagesProvider`. */
export const shareValidationMessages = new SimpleMessagesProvider({
  'id.regex': 'ID can only contain letters, numbers, underscores and hyphens',
  'expiration.regex':
    'Expiration must be "never" or "<number>-<unit>" with unit minute(s), hour(s), day(s), week(s), month(s) or year(s)',
  'chunkIndex.regex': 'chunkIndex must be a whole number written in decimal digits',
  'totalChunks.regex': 'totalChunks must be a whole number written in decimal digits',
  'name.regex': 'name must not contain control characters',
})

const name = () => vine.string().trim().minLength(3).maxLength(30).nullable().optional()
const description = () => vine.string().maxLength(512).nullable().optional()
const expiration = () => vine.string().trim().regex(EXPIRATION_PATTERN).use(storableExpiration())

/** Body of `POST /api/shares`. */
export const createShareValidator = vine.create({
  id: vine.string().trim().minLength(3).maxLength(50).regex(SHARE_ID_PATTERN),
  name: name(),
  description: description(),
  expiration: expiration(),
  recipients: vine.array(vine.string().trim().use(wellFormed()).email()).optional(),
  security: vine
    .object({
      password: vine.string().minLength(3).maxLength(30).nullable().optional(),
      maxViews: positiveIntegerRule().nullable().optional(),
    })
    .nullable()
    .optional(),
})

/** Body of `PATCH /api/shares/:id` (ext): every field optional; null clears password / view limit. */
export const updateShareValidator = vine.create({
  name: name(),
  description: description(),
  expiration: expiration().optional(),
  security: vine
    .object({
      password: vine.string().minLength(3).maxLength(30).nullable().optional(),
      maxViews: positiveIntegerRule().nullable().optional(),
    })
    .optional(),
})

/** Body of `POST /api/shares/:id/token`. */
export const shareTokenValidator = vine.create({
  password: vine.string().nullable().optional(),
})

/** The most chunks one file may have. */
export const MAX_TOTAL_CHUNKS = 1_000_000

/**
 * Query of a chunk upload: `name` (no control characters), `chunkIndex`
 * (0-based) and `totalChunks` (>= 1) in plain decimal digits, `id` of the
 * file for later chunks.
 */
export const chunkQueryValidator = vine.create({
  name: vine
    .string()
    .minLength(1)
    .maxLength(255)
    // eslint-disable-next-line no-control-regex -- a file name must not carry control characters
    .regex(/^[^\x00-\x1f\x7f]*$/),
  chunkIndex: queryIntegerRule(0, MAX_TOTAL_CHUNKS - 1),
  totalChunks: queryIntegerRule(1, MAX_TOTAL_CHUNKS),
  id: vine.string().uuid().optional(),
})
chunkQueryValidator.messagesProvider = shareValidationMessages

/**
 * Pingvin clients send `""` for an unset name or description: treat it as
 * null before validation.
 */
export function emptyToNull<T>(body: T): T {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  for (const key of ['name', 'description']) if (copy[key] === '') copy[key] = null
  return copy as T
}
