/**
 * Opaque secret tokens (refresh, login, password-reset and API tokens):
 * generated from the CSPRNG, URL-safe, and stored only as a SHA-256 digest.
 */
import { createHash, randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'

/** A random URL-safe token of `bytes` random bytes (base64url, no padding). */
export function generateToken(bytes: number = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/**
 * The digest stored in place of a token: SHA-256, hex (64 chars). The tokens
 * carry 256 bits of entropy, so a fast digest is enough (no salt, no KDF),
 * and lookups by digest stay a single indexed query.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/**
 * `when` (default now, UTC) formatted the way the database stores date-times,
 * for comparisons in raw `where` clauses (Lucid converts DateTime values only
 * in model writes, not in query conditions).
 */
export function sqlDateTime(when: DateTime = DateTime.utc()): string {
  return when.toUTC().toFormat(db.connection().dialect.dateTimeFormat)
}
