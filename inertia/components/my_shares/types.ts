/**
 * The paths of the shares routes the "My shares" and share edit pages call
 * (`/api/shares`). The objects they read are typed in `#api/share`.
 */
import { apiUrl } from '~/lib/api_url'

/** Paths of the shares routes these pages call. */
export const sharePaths = {
  mine: apiUrl('shares.index'),
  share: (id: string) => apiUrl('shares.show', { id }),
  fromOwner: (id: string) => apiUrl('shares.fromOwner', { id }),
  complete: (id: string) => apiUrl('shares.complete', { id }),
  file: (id: string, fileId: string) => apiUrl('shares.files.destroy', { id, fileId }),
  editPage: (id: string) => `/share/${encodeURIComponent(id)}/edit`,
} as const
