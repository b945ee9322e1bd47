/**
 * Secrets generated once per Tern instance and kept in the database
 * (`instance_secrets`), e.g. the JWT signing key. Every process that shares
 * the database uses the same value; creation is race-safe (insert-or-ignore,
 * then read back what won).
 */
import { randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import InstanceSecret from '#models/instance_secret'

/** Names of the instance secrets Tern uses. */
export const INSTANCE_SECRETS = {
  /** The HS256 key of the access and share JWTs. */
  jwt: 'jwt',
} as const

/**
 * Values read so far, shared by every instance of the service in this
 * process (a stored secret never changes, see `get`).
 */
const cache = new Map<string, string>()

/**
 * Reads (and creates once) instance secrets. Resolve it from the container
 * (`await app.container.make(InstanceSecretService)`) or inject it.
 */
@inject()
export default class InstanceSecretService {
  /**
   * The secret called `name`, created with `generate` (64 random bytes,
   * base64url, by default) the first time any instance asks. A value never
   * changes once stored, so it is kept in memory after the first read.
   */
  async get(name: string, generate: () => string = () => randomBytes(64).toString('base64url')) {
    const cached = cache.get(name)
    if (cached) return cached

    let row = await InstanceSecret.find(name)
    if (!row) {
      const client = db.connection()
      const now = DateTime.utc().toFormat(client.dialect.dateTimeFormat)
      await client
        .knexQuery()
        .table(InstanceSecret.table)
        .insert({ name, value: generate(), created_at: now })
        .onConflict('name')
        .ignore()
      row = await InstanceSecret.findOrFail(name)
    }
    cache.set(name, row.value)
    return row.value
  }

  /** Creates every secret of `INSTANCE_SECRETS` that does not exist yet (at start). */
  async ensureAll(): Promise<void> {
    for (const name of Object.values(INSTANCE_SECRETS)) await this.get(name)
  }

  /** Forgets the in-memory copies (tests). */
  clearCache() {
    cache.clear()
  }
}
