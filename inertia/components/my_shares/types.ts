/**
 * The shares API objects the "My shares" and share edit pages read
 * (spec/api.md §4) and the paths they call.
 */

/** A file of a share: `size` is a decimal string of bytes. */
export interface ShareFileInfo {
  id: string
  name: string
  size: string
}

/** A "my share" object of `GET /api/shares`. */
export interface MyShare {
  id: string
  name: string | null
  /** ISO date; the epoch (1970-01-01T00:00:00.000Z) means "never expires". */
  expiration: string
  description: string | null
  size: number
  views: number
  createdAt: string
  recipients: string[]
  files: ShareFileInfo[]
  security: { maxViews?: number; passwordProtected: boolean }
}

/** A "share" object (`GET /api/shares/:id/from-owner`, `PATCH /api/shares/:id`, `DELETE .../complete`). */
export interface OwnedShare {
  id: string
  name: string | null
  expiration: string
  description: string | null
  hasPassword: boolean
  creator: { username: string } | null
  files: ShareFileInfo[]
  size: number
}

/** Paths of the shares routes these pages call. */
export const sharePaths = {
  mine: '/api/shares',
  share: (id: string) => `/api/shares/${encodeURIComponent(id)}`,
  fromOwner: (id: string) => `/api/shares/${encodeURIComponent(id)}/from-owner`,
  complete: (id: string) => `/api/shares/${encodeURIComponent(id)}/complete`,
  file: (id: string, fileId: string) => `/api/shares/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`,
  editPage: (id: string) => `/share/${encodeURIComponent(id)}/edit`,
} as const
