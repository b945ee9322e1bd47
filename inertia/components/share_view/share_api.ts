/**
 * The share view's side of the shares API (spec/api.md §4): the objects it
 * reads and the URLs of its calls, downloads and previews.
 */

/** A file of a share as `GET /api/shares/:id` lists it (size: decimal string of bytes). */
export interface ShareFile {
  id: string
  name: string
  size: string
}

/** The "share" object of `GET /api/shares/:id`. */
export interface Share {
  id: string
  name: string | null
  expiration: string
  description: string | null
  hasPassword: boolean
  creator: { username: string } | null
  files: ShareFile[]
  size: number
}

/** `GET /api/shares/:id/metaData`. */
export interface ShareMetaData {
  id: string
  isZipReady: boolean
}

const base = (shareId: string) => `/api/shares/${encodeURIComponent(shareId)}`

/** URLs of the share view's API calls (relative to the site). */
export const shareApiPaths = {
  share: (shareId: string) => base(shareId),
  token: (shareId: string) => `${base(shareId)}/token`,
  metaData: (shareId: string) => `${base(shareId)}/metaData`,
  zip: (shareId: string) => `${base(shareId)}/files/zip`,
  /** A file: attachment (`download=true`) or inline (`download=false`, previews). */
  file: (shareId: string, fileId: string, download: boolean) =>
    `${base(shareId)}/files/${encodeURIComponent(fileId)}?download=${download}`,
  /** The direct link of a file (no query: what visitors paste elsewhere). */
  directLink: (shareId: string, fileId: string) => `${base(shareId)}/files/${encodeURIComponent(fileId)}`,
}

/** `appUrl` (or the page's origin) without trailing slashes, to build absolute links. */
export function absoluteUrl(appUrl: string, path: string): string {
  const origin = appUrl || (typeof window !== 'undefined' ? window.location.origin : '')
  return `${origin.replace(/\/+$/, '')}${path}`
}
