/**
 * The devices a user signed in from, to tell them about a sign-in from a new
 * one (`auth.new_device_sign_in`).
 *
 * A device is a fingerprint: SHA-256 of the user id, the browser family and
 * the OS family of the user agent (bowser; versions left out, so an update
 * is the same device) and the network (IPv4 /24, IPv6 /64; an IPv4-mapped
 * IPv6 address counts as IPv4), so a new address from the same provider's
 * pool, or a browser update, is not "new", while another browser, another
 * OS or another network is. Only the digest is stored (table
 * `known_devices`).
 *
 * The first device a user ever signs in from (sign-up, the first sign-in
 * after this feature arrived) is recorded without an event: there is nothing
 * to compare it with. Recording never fails a sign-in: errors are logged.
 */
import { createHash, randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import Bowser from 'bowser'
import ipaddr from 'ipaddr.js'
import { DateTime } from 'luxon'
import type User from '#models/user'
import { sqlDateTime } from '#services/auth/tokens'
import { notificationUser } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'

/** The table of known devices. */
export const KNOWN_DEVICES_TABLE = 'known_devices'

/** The longest user agent an event carries. */
const DEVICE_TEXT_LIMIT = 200

/** What a sign-in request says about the device (read by the controller). */
export interface SignInDevice {
  /** The `User-Agent` header, or null. */
  userAgent: string | null
  /** The client address (`request.ip()`, proxies resolved), or null. */
  ip: string | null
}

/**
 * `browser|os` families of a user agent, lowercased (bowser's names, e.g.
 * `microsoft edge|windows`); a client bowser does not know is named by its
 * product token (`curl/8.5.0` is `curl`); `unknown` for what cannot be told.
 */
export function deviceFamilies(userAgent: string | null): string {
  const agent = (userAgent ?? '').trim()
  if (!agent) return 'unknown|unknown'
  const parsed = Bowser.parse(agent)
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(agent)?.[1]
  const browser =
    parsed.browser.name || (product && product.toLowerCase() !== 'mozilla' ? product : 'unknown')
  return `${browser}|${parsed.os.name || 'unknown'}`.toLowerCase()
}

/** The network of an address: `a.b.c.0/24` (IPv4, mapped IPv6 too), the /64 for IPv6, `unknown` otherwise. */
export function deviceNetwork(ip: string | null): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown'
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') return `${address.toByteArray().slice(0, 3).join('.')}.0/24`
  const hextets = (address as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4)
  return `${hextets.join(':')}::/64`
}

/** The stored fingerprint of `device` for `userId` (hex SHA-256). */
export function deviceFingerprint(userId: string, device: SignInDevice): string {
  return createHash('sha256')
    .update(JSON.stringify([userId, deviceFamilies(device.userAgent), deviceNetwork(device.ip)]))
    .digest('hex')
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class KnownDevices {
  constructor(private notifications: NotificationRouter) {}

  /**
   * Records that `user` signed in from `device`: a known device has its
   * last sighting updated; a new one is stored, and when the user had
   * another device already, `auth.new_device_sign_in` is emitted in the
   * same transaction. Resolves to whether the event was emitted. Never throws.
   */
  async signedIn(user: User, device: SignInDevice): Promise<boolean> {
    try {
      return await this.#record(user, device)
    } catch (error) {
      logger.error({ err: error, userId: user.id }, 'recording the sign-in device failed')
      return false
    }
  }

  async #record(user: User, device: SignInDevice): Promise<boolean> {
    const fingerprint = deviceFingerprint(user.id, device)
    const now = sqlDateTime()
    const seen = await db
      .from(KNOWN_DEVICES_TABLE)
      .where({ user_id: user.id, fingerprint })
      .update({ last_seen_at: now })
    if (Number(Array.isArray(seen) ? seen[0] : seen) > 0) return false
    try {
      return await db.transaction(async (trx) => {
        // The insert first: on SQLite a transaction that reads first cannot take the write lock later.
        await trx.insertQuery().table(KNOWN_DEVICES_TABLE).insert({
          id: randomUUID(),
          user_id: user.id,
          fingerprint,
          created_at: now,
          last_seen_at: now,
        })
        const other = await trx
          .from(KNOWN_DEVICES_TABLE)
          .where('user_id', user.id)
          .whereNot('fingerprint', fingerprint)
          .select('id')
          .first()
        if (!other) return false
        await this.notifications.emit(
          'auth.new_device_sign_in',
          {
            user: notificationUser(user),
            device: (device.userAgent ?? '').slice(0, DEVICE_TEXT_LIMIT),
            ip: device.ip,
            signedInAt: DateTime.utc().toISO()!,
          },
          { client: trx, userId: user.id }
        )
        return true
      })
    } catch (error) {
      // A concurrent sign-in from the same new device stored it first (unique key): it is known now.
      const stored = await db
        .from(KNOWN_DEVICES_TABLE)
        .where({ user_id: user.id, fingerprint })
        .first()
      if (stored) return false
      throw error
    }
  }
}
