/**
 * Usernames of accounts created by a social sign-up: the provider's name
 * (the local part of an e-mail-like one) reduced to the allowed characters (letters, digits, "." and "_", 3-32
 * long), made unique by a numeric suffix.
 */
import { randomInt } from 'node:crypto'

const MIN = 3
const MAX = 32

/**
 * `preferred` reduced to the username alphabet and length (padded with
 * "user" when too short); an e-mail-like name (`mia@contoso.com`, a UPN)
 * keeps its local part.
 */
export function sanitizeUsername(preferred: string): string {
  const name = preferred.includes('@') ? preferred.slice(0, preferred.indexOf('@')) : preferred
  let base = name
    .normalize('NFKD')
    .replace(/[^a-zA-Z0-9._]/g, '')
    .slice(0, MAX)
  if (base.length < MIN) base = `user${base}`.slice(0, MAX)
  return base
}

/**
 * A username based on `preferred` that no user has: `isTaken` answers
 * whether a user has that name (ignoring case).
 */
export async function deriveUsername(
  preferred: string,
  isTaken: (name: string) => Promise<boolean>
): Promise<string> {
  const base = sanitizeUsername(preferred)
  if (!(await isTaken(base))) return base
  for (let attempt = 0; attempt < 20; attempt++) {
    const suffix = String(attempt < 10 ? attempt + 1 : randomInt(1000, 1_000_000))
    const candidate = `${base.slice(0, MAX - suffix.length)}${suffix}`
    if (!(await isTaken(candidate))) return candidate
  }
  throw new Error('No free username found')
}
