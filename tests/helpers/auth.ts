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
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import AccessTokenService, {
  type SignAccessTokenOptions,
} from '#services/auth/access_token_service'
import { ACCESS_TOKEN_COOKIE } from '#auth/guards/pingvin_guard'
import { generate } from 'otplib'
import type { ApiResponse } from '@japa/api-client'
import SessionService, { type SessionTokens } from '#services/auth/session_service'
import { TOTP_PARAMETERS } from '#services/auth/totp_service'

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
export async function accessTokenFor(
  user: User,
  options: SignAccessTokenOptions = {}
): Promise<string> {
  return (await app.container.make(AccessTokenService)).sign(user, null, options)
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

/*
|--------------------------------------------------------------------------
| Sessions, cookies, TOTP codes and client IPs
|--------------------------------------------------------------------------
*/

/** One `Set-Cookie` header, parsed. Attribute names are lower-cased (`path`, `samesite`, `httponly`...). */
export interface SetCookie {
  name: string
  value: string
  attributes: Record<string, string | true>
}

/** Every `Set-Cookie` of a response, parsed. */
export function setCookies(response: ApiResponse): SetCookie[] {
  const raw = response.headers()['set-cookie'] as string | string[] | undefined
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  return lines.map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim())
    const index = pair.indexOf('=')
    return {
      name: pair.slice(0, index),
      value: pair.slice(index + 1),
      attributes: Object.fromEntries(
        attributes.map((attribute) => {
          const at = attribute.indexOf('=')
          return at < 0
            ? [attribute.toLowerCase(), true as const]
            : [attribute.slice(0, at).toLowerCase(), attribute.slice(at + 1)]
        })
      ),
    }
  })
}

/** The `Set-Cookie` named `name` of a response, or undefined. */
export function setCookie(response: ApiResponse, name: string): SetCookie | undefined {
  return setCookies(response).find((cookie) => cookie.name === name)
}

/** Starts a real session for `user` (as a sign-in would). */
export async function sessionFor(user: User): Promise<SessionTokens> {
  return (await app.container.make(SessionService)).create(user)
}

/** A `Cookie` header with the session's `access_token` (and `refresh_token` when asked). */
export function sessionCookie(
  tokens: Pick<SessionTokens, 'accessToken' | 'refreshToken'>,
  withRefresh = false
) {
  const parts = [`access_token=${tokens.accessToken}`]
  if (withRefresh) parts.push(`refresh_token=${tokens.refreshToken}`)
  return parts.join('; ')
}

/** The current TOTP code of `secret` (or the one at `epochSeconds`). */
export function totpCode(secret: string, epochSeconds?: number): Promise<string> {
  return generate({
    secret,
    ...TOTP_PARAMETERS,
    ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }),
  })
}

/**
 * Waits, when needed, until at least `marginSeconds` remain in the current
 * 30-second TOTP step, so a code generated now is still current when the
 * server checks it.
 */
export async function awayFromTotpStepEnd(marginSeconds = 3): Promise<void> {
  const intoStep = (Date.now() / 1000) % TOTP_PARAMETERS.period
  const left = TOTP_PARAMETERS.period - intoStep
  if (left < marginSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100))
}

/**
 * A fresh client IP for `X-Forwarded-For` (the app trusts the proxy header),
 * so rate-limit counters of one test never touch another's.
 */
export function uniqueIp(): string {
  const bytes = randomBytes(3)
  return `10.${bytes[0]}.${bytes[1]}.${Math.max(1, bytes[2])}`
}
