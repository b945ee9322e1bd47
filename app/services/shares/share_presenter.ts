/**
 * The JSON objects of the shares API (spec/api.md §4): share, created or
 * completed share, my share and admin share. File sizes are decimal strings,
 * other sizes numbers; dates ISO-8601 UTC; "never" expires = epoch 0.
 */
import type Share from '#models/share'
import type ShareFile from '#models/share_file'
import { serializeExpiration } from '#services/shares/expiration'

/** A file of a share as the API shows it. */
export interface FileJson {
  id: string
  name: string
  size: string
}

/** The "created/completed share" object: exactly these keys. */
export interface CreatedShareJson {
  id: string
  name: string | null
  expiration: string
  description: string | null
  notifyReverseShareCreator?: boolean
}

/** The "share" object. */
export interface ShareJson extends CreatedShareJson {
  hasPassword: boolean
  creator: { username: string } | null
  files: FileJson[]
  size: number
}

/** The "my share" object. */
export interface MyShareJson extends CreatedShareJson {
  size: number
  views: number
  createdAt: string
  recipients: string[]
  files: FileJson[]
  security: { maxViews?: number; passwordProtected: boolean }
}

/** The "admin share" object. */
export interface AdminShareJson extends CreatedShareJson {
  size: number
  views: number
  createdAt: string
  creator: { username: string } | null
}

/** The completed files of a share, sorted by name (relations must be preloaded). */
export function completedFiles(share: Share): ShareFile[] {
  return [...(share.files ?? [])]
    .filter((file) => file.completed)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id.localeCompare(b.id)))
}

/** A file as `{id, name, size}` (size as a decimal string). */
export function fileJson(file: ShareFile): FileJson {
  return { id: file.id, name: file.name, size: String(file.size) }
}

/** Total bytes of the completed files. */
function totalSize(files: ShareFile[]): number {
  return files.reduce((sum, file) => sum + file.size, 0)
}

/** `{id, name, expiration, description}` of a created or completed share. */
export function createdShareJson(share: Share): CreatedShareJson {
  return {
    id: share.id,
    name: share.name ?? null,
    expiration: serializeExpiration(share.expiration),
    description: share.description ?? null,
  }
}

/** The "share" object; needs `files`, `security` and `creator` preloaded. */
export function shareJson(share: Share): ShareJson {
  const files = completedFiles(share)
  return {
    ...createdShareJson(share),
    hasPassword: Boolean(share.security?.password),
    creator: share.creator ? { username: share.creator.username } : null,
    files: files.map(fileJson),
    size: totalSize(files),
  }
}

/** The "my share" object; needs `files`, `security` and `recipients` preloaded. */
export function myShareJson(share: Share): MyShareJson {
  const files = completedFiles(share)
  const security: MyShareJson['security'] = { passwordProtected: Boolean(share.security?.password) }
  if (share.security?.maxViews) security.maxViews = share.security.maxViews
  return {
    ...createdShareJson(share),
    size: totalSize(files),
    views: share.views,
    createdAt: share.createdAt.toUTC().toISO()!,
    recipients: (share.recipients ?? []).map((recipient) => recipient.email),
    files: files.map(fileJson),
    security,
  }
}

/** The "admin share" object; needs `files` and `creator` preloaded. */
export function adminShareJson(share: Share): AdminShareJson {
  return {
    ...createdShareJson(share),
    size: totalSize(completedFiles(share)),
    views: share.views,
    createdAt: share.createdAt.toUTC().toISO()!,
    creator: share.creator ? { username: share.creator.username } : null,
  }
}
