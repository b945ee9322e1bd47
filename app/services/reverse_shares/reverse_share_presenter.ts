/**
 * The JSON objects of the reverse-shares API (spec/api.md §5). Sizes of
 * reverse shares are decimal strings of bytes; expiries ISO-8601 UTC, epoch 0
 * for "never"; `remainingUses` null = no limit.
 */
import type ReverseShare from '#models/reverse_share'
import { reverseShareLink } from '#services/reverse_shares/reverse_share_service'
import { serializeExpiration } from '#services/shares/expiration'
import { myShareJson, type MyShareJson } from '#services/shares/share_presenter'

/** `POST /api/reverseShares` answer: exactly `{token, link}`. */
export interface CreatedReverseShareJson {
  token: string
  link: string
}

/** `GET /api/reverseShares/:token` answer: exactly these keys. */
export interface PublicReverseShareJson {
  id: string
  maxShareSize: string
  shareExpiration: string
  token: string
  simplified: boolean
}

/** An item of `GET /api/reverseShares`: exactly these keys. */
export interface ReverseShareJson {
  id: string
  token: string
  link: string
  shareExpiration: string
  maxShareSize: string
  /** Uses left; null = no limit. */
  remainingUses: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
  /** The completed shares made through it ("my share" objects). */
  shares: MyShareJson[]
}

/** `{token, link}` of a new reverse share. */
export async function createdReverseShareJson(reverseShare: ReverseShare): Promise<CreatedReverseShareJson> {
  return { token: reverseShare.token, link: await reverseShareLink(reverseShare.token) }
}

/** What anyone holding the token may learn about a reverse share. */
export function publicReverseShareJson(reverseShare: ReverseShare): PublicReverseShareJson {
  return {
    id: reverseShare.id,
    maxShareSize: String(reverseShare.maxShareSize),
    shareExpiration: serializeExpiration(reverseShare.shareExpiration),
    token: reverseShare.token,
    simplified: reverseShare.simplified,
  }
}

/** The owner's view of a reverse share; needs `shares` preloaded as `reverseSharesOf` does. */
export async function reverseShareJson(reverseShare: ReverseShare): Promise<ReverseShareJson> {
  return {
    id: reverseShare.id,
    token: reverseShare.token,
    link: await reverseShareLink(reverseShare.token),
    shareExpiration: serializeExpiration(reverseShare.shareExpiration),
    maxShareSize: String(reverseShare.maxShareSize),
    remainingUses: reverseShare.remainingUses,
    sendEmailNotification: reverseShare.sendEmailNotification,
    simplified: reverseShare.simplified,
    publicAccess: reverseShare.publicAccess,
    shares: (reverseShare.shares ?? []).map(myShareJson),
  }
}
