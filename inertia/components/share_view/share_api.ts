/**
 * The share view's side of the shares API (`/api/shares`): the URLs of its
 * calls, downloads and previews. The objects it reads are typed in `#api/share`.
 */
import { apiUrl } from '~/lib/api_url'

/** URLs of the share view's API calls (relative to the site). */
export const shareApiPaths = {
  share: (shareId: string) => apiUrl('shares.show', { id: shareId }),
  token: (shareId: string) => apiUrl('shares.token', { id: shareId }),
  metaData: (shareId: string) => apiUrl('shares.metaData', { id: shareId }),
  zip: (shareId: string) => apiUrl('shares.files.zip', { id: shareId }),
  /** A file: attachment (`download=true`) or inline (`download=false`, previews). */
  file: (shareId: string, fileId: string, download: boolean) =>
    `${apiUrl('shares.files.download', { id: shareId, fileId })}?download=${download}`,
  /** The direct link of a file (no query: what visitors paste elsewhere). */
  directLink: (shareId: string, fileId: string) =>
    apiUrl('shares.files.download', { id: shareId, fileId }),
}

/** `appUrl` (or the page's origin) without trailing slashes, to build absolute links. */
export function absoluteUrl(appUrl: string, path: string): string {
  const origin = appUrl || (typeof window !== 'undefined' ? window.location.origin : '')
  return `${origin.replace(/\/+$/, '')}${path}`
}
