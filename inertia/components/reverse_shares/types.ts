/**
 * What the reverse-share pages need besides the API objects (those come from
 * `#api/reverse_share`, the types the server's transformer returns): the
 * paths they call and the server's refusal messages they recognise.
 */
import { apiUrl } from '~/lib/api_url'

/** Paths of the reverse-shares routes these pages call. */
export const reverseSharePaths = {
  mine: apiUrl('reverseShares.index'),
  create: apiUrl('reverseShares.store'),
  byToken: (token: string) => apiUrl('reverseShares.show', { token }),
  reverseShare: (id: string) => apiUrl('reverseShares.destroy', { id }),
  sharePage: (id: string) => `/share/${encodeURIComponent(id)}`,
} as const

/** The server's refusal of a max share size over `share.maxSize` ("Max share size can't be greater than <n> bytes."). */
export const MAX_SHARE_SIZE_MESSAGE = /^Max share size can't be greater than \d+ bytes\.$/

/** The server's refusal of an expiration over `share.maxExpiration`. */
export const EXPIRATION_TOO_LONG_MESSAGE = 'Expiration date exceeds maximum expiration date'
