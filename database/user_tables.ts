/**
 * Column helpers for the tables of rows a user owns (tokens, social accounts),
 * so their migrations share one definition of the key, the owner and the
 * timestamps. The models' side is app/models/user_record.ts.
 */
import type { Knex } from 'knex'

/** `id` (UUID string, primary key) and `user_id` (deleted with its user). */
export function userKeyColumns(table: Knex.CreateTableBuilder): void {
  table.string('id', 36).primary()
  table.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE')
}

/** `token_hash`: the digest of a token (never the token), unique. */
export function tokenHashColumn(table: Knex.CreateTableBuilder): void {
  table.string('token_hash', 128).notNullable().unique()
}

/** `created_at`, and `updated_at` unless `updatedAt` is false. */
export function timestampColumns(
  table: Knex.CreateTableBuilder,
  options: { updatedAt: boolean }
): void {
  table.dateTime('created_at', { useTz: true }).notNullable()
  if (options.updatedAt) table.dateTime('updated_at', { useTz: true }).notNullable()
}

/**
 * A short-lived token table: key, owner, `token_hash`, `expires_at`, the
 * table's own `columns`, timestamps, and indexes on `user_id` and `expires_at`
 * (the clean-up job deletes by expiry).
 */
export function tokenTableColumns(
  table: Knex.CreateTableBuilder,
  options: { updatedAt: boolean; columns?: (table: Knex.CreateTableBuilder) => void }
): void {
  userKeyColumns(table)
  tokenHashColumn(table)
  table.dateTime('expires_at', { useTz: true }).notNullable()
  options.columns?.(table)
  timestampColumns(table, options)
  table.index(['user_id'])
  table.index(['expires_at'])
}
