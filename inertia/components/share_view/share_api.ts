/**
 * The share view's side of the shares API (`/api/shares`): the URLs of its
 * calls, downloads and previews. The objects it reads are typed in `#api/share`.
 */

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
  directLink: (shareId: string, fileId: string) =>
    `${base(shareId)}/files/${encodeURIComponent(fileId)}`,
}

/** `appUrl` (or the page's origin) without trailing slashes, to build absolute links. */
export function absoluteUrl(appUrl: string, path: string): string {
  const origin = appUrl || (typeof window !== 'undefined' ? window.location.origin : '')
  return `${origin.replace(/\/+$/, '')}${path}`
}
