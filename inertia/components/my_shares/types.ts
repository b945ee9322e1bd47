/**
 * The paths of the shares routes the "My shares" and share edit pages call
 * (`/api/shares`). The objects they read are typed in `#api/share`.
 */

/** Paths of the shares routes these pages call. */
export const sharePaths = {
  mine: '/api/shares',
  share: (id: string) => `/api/shares/${encodeURIComponent(id)}`,
  fromOwner: (id: string) => `/api/shares/${encodeURIComponent(id)}/from-owner`,
  complete: (id: string) => `/api/shares/${encodeURIComponent(id)}/complete`,
  file: (id: string, fileId: string) =>
    `/api/shares/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`,
  editPage: (id: string) => `/share/${encodeURIComponent(id)}/edit`,
} as const
