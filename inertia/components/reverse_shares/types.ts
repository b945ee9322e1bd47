/**
 * The reverse-shares API objects the pages read (spec/api.md §5) and the
 * paths they call.
 */
import type { MyShare } from '~/components/my_shares/types'

/** An item of `GET /api/reverseShares`. */
export interface ReverseShare {
  id: string
  token: string
  /** `${general.appUrl}/upload/<token>`. */
  link: string
  /** ISO date; the epoch means "never expires". */
  shareExpiration: string
  /** Bytes, as a decimal string. */
  maxShareSize: string
  /** Uses left; null = no limit. */
  remainingUses: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
  /** The completed shares made through it. */
  shares: MyShare[]
}

/** Body of `POST /api/reverseShares`. */
export interface CreateReverseShareInput {
  /** `never` or `<n>-<unit>`. */
  shareExpiration: string
  /** Bytes, as a decimal string. */
  maxShareSize: string
  /** Null: no limit. */
  maxUseCount: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
}

/** `POST /api/reverseShares` answer. */
export interface CreatedReverseShare {
  token: string
  link: string
}

/** What the upload page of a reverse share knows about it (`GET /api/reverseShares/:token`). */
export interface PublicReverseShare {
  id: string
  token: string
  /** Bytes, as a decimal string. */
  maxShareSize: string
  /** ISO date; the epoch means "never expires". */
  shareExpiration: string
  simplified: boolean
}

/** Paths of the reverse-shares routes these pages call. */
export const reverseSharePaths = {
  mine: '/api/reverseShares',
  create: '/api/reverseShares',
  byToken: (token: string) => `/api/reverseShares/${encodeURIComponent(token)}`,
  reverseShare: (id: string) => `/api/reverseShares/${encodeURIComponent(id)}`,
  sharePage: (id: string) => `/share/${encodeURIComponent(id)}`,
} as const

/** The server's refusal of a max share size over `share.maxSize` ("Max share size can't be greater than <n> bytes."). */
export const MAX_SHARE_SIZE_MESSAGE = /^Max share size can't be greater than \d+ bytes\.$/

/** The server's refusal of an expiration over `share.maxExpiration`. */
export const EXPIRATION_TOO_LONG_MESSAGE = 'Expiration date exceeds maximum expiration date'
