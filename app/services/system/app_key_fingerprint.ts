/**
 * One APP_KEY for all instances of a database. Cookies,
 * signed URLs and the social-login state are signed with APP_KEY; an
 * instance with another key rejects what its siblings signed (a social-login
 * callback landing on it fails). When APP_KEY is not set each DATA_DIR
 * generates its own, so instances with separate DATA_DIRs silently differ.
 * The database records a fingerprint of the key (an HMAC of a fixed text
 * under the key: the key cannot be derived from it) on first start, the
 * same way as the storage root's id (#extensions/storage/shared_root); an
 * instance whose key gives another fingerprint refuses to start.
 */
import { createHmac } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'

const TABLE = 'instance_secrets'
/** The row holding the fingerprint (not a secret: nothing can be signed with it). */
export const APP_KEY_FINGERPRINT_NAME = 'app-key-fingerprint'
const FINGERPRINT_TEXT = 'tern app key fingerprint v1'

/** Raised at start when this instance's APP_KEY is not the one the database recorded. */
export class AppKeyMismatchError extends Error {
  code = 'E_APP_KEY_MISMATCH'
  constructor() {
    super(
      'the APP_KEY of this instance is not the one the other Tern instances using this database ' +
        'use (the database recorded another key on its first start). All instances sharing a ' +
        'database must share APP_KEY, or sign-in cookies and social-login callbacks that land on ' +
        'another instance fail. Set APP_KEY to the same value on every instance, or copy ' +
        'DATA_DIR/app_key from the first instance to this one.'
    )
  }
}

/** The fingerprint of `key`: a short HMAC-SHA256 of a fixed text under the key. */
export function appKeyFingerprint(key: string): string {
  return createHmac('sha256', key).update(FINGERPRINT_TEXT).digest('base64url').slice(0, 32)
}

/**
 * Records the fingerprint of `key` when the database has none (insert or
 * ignore: of instances starting together, the first wins), then throws
 * `AppKeyMismatchError` when the recorded one differs. Does nothing before
 * the migrations ran.
 */
export async function verifyAppKey(key: string): Promise<void> {
  const client = db.connection()
  if (!(await client.schema.hasTable(TABLE))) return
  const fingerprint = appKeyFingerprint(key)
  const now = DateTime.utc().toFormat(client.dialect.dateTimeFormat)
  await client
    .knexQuery()
    .table(TABLE)
    .insert({ name: APP_KEY_FINGERPRINT_NAME, value: fingerprint, created_at: now })
    .onConflict('name')
    .ignore()
  const row = await db.from(TABLE).where('name', APP_KEY_FINGERPRINT_NAME).first()
  if (row && String(row.value) !== fingerprint) throw new AppKeyMismatchError()
}
