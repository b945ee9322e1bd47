/**
 * Time-based one-time passwords with otplib 13: SHA-1,
 * 6 digits, 30-second period (what authenticator apps expect), one step of
 * clock drift accepted either way, and no replay: the time step of every
 * accepted code is recorded in `users.totp_last_step`, and a code whose step
 * is not later than the recorded one is refused. Recording is a conditional
 * update, so two simultaneous requests cannot both use one code.
 */
import { inject } from '@adonisjs/core'
import { createGuardrails, generateSecret, generateURI, verify, type OTPGuardrails } from 'otplib'
import QRCode from 'qrcode'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { sqlDateTime } from '#services/auth/tokens'

/** The TOTP parameters of every Tern secret. */
export const TOTP_PARAMETERS = { algorithm: 'sha1', digits: 6, period: 30 } as const

/** Accepted clock drift, in seconds (one period either way). */
export const TOTP_TOLERANCE_SECONDS = TOTP_PARAMETERS.period

const CODE_PATTERN = /^\d{6}$/

/**
 * otplib 13 refuses secrets under 16 bytes, but Pingvin Share's (otplib 12)
 * are 10 bytes (16 Base32 characters), and accounts imported from it keep
 * theirs (docs/design/pingvin_import.md §5). Only such short secrets are
 * checked with this lower minimum; Tern's own secrets are 20 bytes.
 */
export const LEGACY_MIN_SECRET_BYTES = 10
const LEGACY_GUARDRAILS = createGuardrails({ MIN_SECRET_BYTES: LEGACY_MIN_SECRET_BYTES })
const DEFAULT_MIN_SECRET_BYTES = createGuardrails().MIN_SECRET_BYTES

/** The otplib guardrails for `secret`: the lower minimum only when its decoded length is under otplib's. */
function guardrailsFor(secret: string): { guardrails?: OTPGuardrails } {
  const bytes = Math.floor((secret.replace(/[\s=]/g, '').length * 5) / 8)
  return bytes < DEFAULT_MIN_SECRET_BYTES ? { guardrails: LEGACY_GUARDRAILS } : {}
}

/** TOTP secrets, provisioning URIs, QR codes and code checks. Resolve it from the container or inject it. */
@inject()
export default class TotpService {
  /** A new random Base32 secret (20 bytes, as authenticator apps expect). */
  generateSecret(): string {
    return generateSecret()
  }

  /** The `otpauth://totp/...` provisioning URI: issuer = app name, label = username. */
  authUrl(secret: string, issuer: string, label: string): string {
    return generateURI({ issuer, label, secret, ...TOTP_PARAMETERS })
  }

  /** A `data:image/png;base64,...` QR code of `text`. */
  qrCode(text: string): Promise<string> {
    return QRCode.toDataURL(text)
  }

  /**
   * The time step at which `code` is valid for `secret` (within the drift
   * tolerance, and later than `afterStep` when given), or null. Never throws
   * for a malformed code.
   */
  async matchingStep(
    secret: string,
    code: unknown,
    afterStep?: number | null,
    epochSeconds?: number
  ): Promise<number | null> {
    if (typeof code !== 'string' || !CODE_PATTERN.test(code.trim())) return null
    try {
      const result = await verify({
        secret,
        token: code.trim(),
        ...TOTP_PARAMETERS,
        ...guardrailsFor(secret),
        epochTolerance: TOTP_TOLERANCE_SECONDS,
        ...(afterStep === null || afterStep === undefined ? {} : { afterTimeStep: afterStep }),
        ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }),
      })
      return result.valid && 'timeStep' in result ? result.timeStep : null
    } catch {
      return null
    }
  }

  /**
   * Checks `code` against the user's secret and, when valid, records its
   * time step so it cannot be used again. False for a wrong, stale or
   * replayed code (or a user without a secret). Updates `user` in memory.
   */
  async consume(user: User, code: unknown): Promise<boolean> {
    if (!user.totpSecret) return false
    const step = await this.matchingStep(user.totpSecret, code, user.totpLastStep)
    if (step === null) return false
    const updated = await db
      .from(User.table)
      .where('id', user.id)
      .where((query) => query.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
      .update({ totp_last_step: step, updated_at: sqlDateTime() })
    if (Number(Array.isArray(updated) ? updated[0] : updated) !== 1) return false
    user.totpLastStep = step
    return true
  }
}
