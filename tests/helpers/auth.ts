/**
 * Test helpers for signed-in requests.
 *
 * ```ts
 * const admin = await createUser({ admin: true })
 * await client.get('/api/configs/admin/share').header(...(await authHeaderFor(admin)))
 * await client.get('/api/configs/admin/share').header('Cookie', await accessCookieFor(admin))
 * ```
 */
import { randomBytes } from 'node:crypto'
import User from '#models/user'
import { accessTokenService, type SignAccessTokenOptions } from '#services/auth/access_token_service'
import { ACCESS_TOKEN_COOKIE } from '#services/auth/current_user'

/** Options of `createUser`. */
export interface CreateUserOptions {
  admin?: boolean
  username?: string
  email?: string
  /** Plain password (hashed by the model); default "password123"; null for none. */
  password?: string | null
}

/** Creates a user with unique username and email (not an admin unless asked). */
export async function createUser(options: CreateUserOptions = {}): Promise<User> {
  const suffix = randomBytes(4).toString('hex')
  return User.create({
    username: options.username ?? `user_${suffix}`,
    email: options.email ?? `user_${suffix}@example.com`,
    password: options.password === undefined ? 'password123' : options.password,
    isAdmin: options.admin ?? false,
  })
}

/** A signed access token (JWT) for `user`. */
export function accessTokenFor(user: User, options: SignAccessTokenOptions = {}): Promise<string> {
  return accessTokenService.sign(user, null, options)
}

/** A `Cookie` header value carrying the plain `access_token` cookie for `user`. */
export async function accessCookieFor(user: User, options: SignAccessTokenOptions = {}) {
  return `${ACCESS_TOKEN_COOKIE}=${await accessTokenFor(user, options)}`
}

/** `['Authorization', 'Bearer <jwt>']`, to spread into `.header(...)`. */
export async function authHeaderFor(
  user: User,
  options: SignAccessTokenOptions = {}
): Promise<[string, string]> {
  return ['Authorization', `Bearer ${await accessTokenFor(user, options)}`]
}
