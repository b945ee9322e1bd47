/**
 * The `known_device` cookie: this browser's proof that it signed in to an
 * account before. Set at every successful sign-in (password, TOTP, sign-up,
 * social login); read by the sign-in routes, where it lets the browser past
 * the per-account ceiling of failed attempts that an attacker spraying the
 * account from many addresses fills (app/services/auth/rate_limiter.ts).
 *
 * An address is not such a proof: behind a proxy it is what X-Forwarded-For
 * says, which a client that may reach Tern from a trusted address chooses
 * freely (TRUST_PROXY), and a NAT, an office or a mobile carrier gives one
 * address to many people, attackers included. This cookie cannot be made
 * without APP_KEY: it is encrypted and authenticated under the cookie's
 * name, names the accounts (ids, newest first, at most `MAX_ACCOUNTS`) and
 * a random id of the browser, which is the key of the proof's own limit.
 *
 * HttpOnly, SameSite Strict, Path `/api/auth` (the sign-in routes only),
 * one year, renewed at each sign-in; Secure as every cookie
 * (cookie_security). Sign-out keeps it: it proves a past sign-in, and
 * grants nothing but the way past that ceiling.
 */
import { randomBytes } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { secureCookies } from '#http/cookie_security'
import type { SignInDevice } from '#services/auth/known_devices'

/** Name of the cookie. */
export const KNOWN_DEVICE_COOKIE = 'known_device'

/** Path of the cookie: the browser sends it to the sign-in routes only. */
export const KNOWN_DEVICE_COOKIE_PATH = '/api/auth'

/** Life of the cookie, in seconds (one year; browsers cap a cookie's life at 400 days). */
export const KNOWN_DEVICE_MAX_AGE = 365 * 24 * 60 * 60

/** Accounts one browser is remembered for (shared computers); the oldest drops out. */
const MAX_ACCOUNTS = 10

/** What the cookie holds. */
interface KnownDevice {
  /** Random id of this browser (base64url, 128 bits). */
  device: string
  /** Ids of the accounts that signed in here, newest first. */
  accounts: string[]
}

/** The request's cookie, or null when it has none, or one that was not made by this instance's key. */
function knownDeviceOf(ctx: HttpContext): KnownDevice | null {
  const value = ctx.request.encryptedCookie(KNOWN_DEVICE_COOKIE) as
    Partial<KnownDevice> | null | undefined
  if (!value || typeof value !== 'object') return null
  const { device, accounts } = value
  if (typeof device !== 'string' || !/^[\w-]{22}$/.test(device)) return null
  if (!Array.isArray(accounts) || !accounts.every((id) => typeof id === 'string')) return null
  return { device, accounts: accounts.slice(0, MAX_ACCOUNTS) }
}

/**
 * The id of this browser when its cookie proves an earlier successful
 * sign-in of account `userId`, else null.
 */
export function knownDeviceFor(ctx: HttpContext, userId: string): string | null {
  const known = knownDeviceOf(ctx)
  return known && known.accounts.includes(userId) ? known.device : null
}

/** Sets the cookie after a successful sign-in of `userId` (this browser keeps its id). */
export async function rememberDevice(ctx: HttpContext, userId: string): Promise<void> {
  const known = knownDeviceOf(ctx)
  const device = known?.device ?? randomBytes(16).toString('base64url')
  const accounts = [userId, ...(known?.accounts ?? []).filter((id) => id !== userId)].slice(
    0,
    MAX_ACCOUNTS
  )
  ctx.response.encryptedCookie(KNOWN_DEVICE_COOKIE, { device, accounts } satisfies KnownDevice, {
    path: KNOWN_DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: await secureCookies(ctx),
    maxAge: KNOWN_DEVICE_MAX_AGE,
  })
}

/** The device a sign-in comes from: its `User-Agent` and address (KnownDevices). */
export function signInDeviceOf(ctx: HttpContext): SignInDevice {
  return { userAgent: ctx.request.header('user-agent') ?? null, ip: ctx.request.ip() || null }
}
