/**
 * The reverse-share objects of the reverse-shares API (`/api/reverseShares*`), shared by the
 * server (ReverseShareTransformer returns them) and the browser code (which
 * imports them as `#api/reverse_share`). Sizes of reverse shares are decimal
 * strings of bytes; expiries ISO-8601 UTC, epoch 0 for "never".
 * Plain types only: this folder imports nothing from the server or the browser.
 */
import type { MyShare } from './share.js'

/** `POST /api/reverseShares` answer: exactly `{token, link}`. */
export interface CreatedReverseShare {
  token: string
  /** `${general.appUrl}/upload/<token>`. */
  link: string
}

/** `GET /api/reverseShares/:token` answer (and the upload page's prop): what anyone holding the token may learn. */
export interface PublicReverseShare {
  id: string
  /** Bytes, as a decimal string. */
  maxShareSize: string
  /** ISO date; the epoch means "never expires". */
  shareExpiration: string
  token: string
  simplified: boolean
}

/** An item of `GET /api/reverseShares`: the owner's view of a reverse share. */
export interface ReverseShare {
  id: string
  token: string
  /** `${general.appUrl}/upload/<token>`. */
  link: string
  /** ISO date; the epoch means "never expires". */
  shareExpiration: string
  /** Bytes, as a decimal string. */
  maxShareSize: string
  /** Uploads that may still start (an upload in progress holds its use); null = no limit. */
  remainingUses: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
  /** The completed shares made through it ("my share" objects). */
  shares: MyShare[]
}

/** Body of `POST /api/reverseShares` as the browser sends it. */
export interface CreateReverseShareInput {
  /** `never` or `<n>-<unit>`, capped by `share.maxExpiration`. */
  shareExpiration: string
  /** Bytes, as a decimal string: at least 1, at most `share.maxSize`. */
  maxShareSize: string
  /** How many shares may be completed through it; null = no limit. */
  maxUseCount: number | null
  /** Mail the creator when a share was completed through it. */
  sendEmailNotification: boolean
  /** The upload page shows only the files and the result. */
  simplified: boolean
  /** False: its shares are visible only to the creator. */
  publicAccess: boolean
}
