/**
 * Checking stored password hashes, including the argon2id hashes of accounts
 * and share passwords imported from Pingvin Share (docs/design/pingvin_import.md
 * §4). Tern hashes with scrypt (config/hash.ts); an argon2 hash is verified
 * with the `argon` hasher, which takes m/t/p from the hash itself, and is
 * replaced by a scrypt hash on its first correct use, so that each legacy
 * hash is verified with argon2 at most once per correct password.
 *
 * ```ts
 * const check = await verifyPasswordHash(stored, plain)
 * if (check.ok && check.rehash) await replacePasswordHash({ table: 'users', id }, stored, plain)
 * ```
 */
import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type User from '#models/user'

/** The result of a password check: `rehash` is true when a correct password's hash should be renewed. */
export interface PasswordCheck {
  ok: boolean
  rehash: boolean
}

/** Where a hash is stored: the `password` column of the row `id` of `table`. */
export interface StoredHash {
  table: 'users' | 'share_securities'
  id: string
}

/** True for an argon2 hash in PHC form (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), as Pingvin stored them. */
export function isArgon2Hash(stored: string): boolean {
  return stored.startsWith('$argon2')
}

/**
 * Checks `plain` against `stored` (scrypt, or argon2 from Pingvin). Never
 * throws for a malformed hash: it does not match. `rehash` is true for a
 * matching argon2 hash, or a scrypt hash made with other parameters than
 * config/hash.ts sets now.
 */
export async function verifyPasswordHash(stored: string, plain: string): Promise<PasswordCheck> {
  if (isArgon2Hash(stored)) {
    const ok = await hash.use('argon').verify(stored, plain)
    return { ok, rehash: ok }
  }
  let ok: boolean
  try {
    ok = await hash.verify(stored, plain)
  } catch {
    ok = false
  }
  return { ok, rehash: ok && hash.needsReHash(stored) }
}

/**
 * Stores a new (scrypt) hash of `plain` in place of `previous`, only while
 * the row still holds `previous`: a password changed meanwhile is never
 * overwritten with the old one. The row's `updated_at` is left alone (nothing
 * the user sees changed). Returns the new hash, or null when the row had
 * changed. `trx`: the transaction the row was read in, if any.
 */
export async function replacePasswordHash(
  where: StoredHash,
  previous: string,
  plain: string,
  trx?: TransactionClientContract
): Promise<string | null> {
  const renewed = await hash.make(plain)
  const updated = await (trx ?? db)
    .from(where.table)
    .where('id', where.id)
    .where('password', previous)
    .update({ password: renewed })
  return Number(Array.isArray(updated) ? updated[0] : updated) === 1 ? renewed : null
}

/**
 * Checks a plain password against `user`'s stored hash (false when the
 * account has none). A correct password whose hash is a legacy one (argon2id
 * of an account imported from Pingvin, or scrypt with older parameters) is
 * rehashed to the current scrypt right away, in the transaction `user` was
 * read in, if any.
 */
export async function verifyUserPassword(user: User, plain: string): Promise<boolean> {
  if (!user.password) return false
  const stored = user.password
  const check = await verifyPasswordHash(stored, plain)
  if (check.ok && check.rehash) {
    const renewed = await replacePasswordHash(
      { table: 'users', id: user.id },
      stored,
      plain,
      user.$trx
    )
    if (renewed !== null && user.password === stored) {
      user.password = renewed
      user.$original.password = renewed
    }
  }
  return check.ok
}
