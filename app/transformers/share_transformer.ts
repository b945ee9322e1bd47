/**
 * The share objects of the shares API (`/api/shares*`) and of the share
 * pages: share, created/completed share, my share and admin share. Every
 * share that crosses into JSON or React goes through here.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type Share from '#models/share'
import type ShareFile from '#models/share_file'
import { serializeExpiration } from '#services/shares/expiration'
import ShareFileTransformer from '#transformers/share_file_transformer'
import type {
  AdminShare,
  CreatedShare,
  MyShare,
  Share as ShareObject,
  ShareEditSettings,
} from '#api/share'

export type { AdminShare, CreatedShare, MyShare, ShareEditSettings }

/** Total bytes of `files`. */
function totalSize(files: ShareFile[]): number {
  return files.reduce((sum, file) => sum + file.size, 0)
}

/**
 * Turns a `Share` into the API's objects. The default variant (`toObject`)
 * is the "share" object; `toCreated`, `toMyShare` and `toAdminShare` are the
 * others. The static `*JSON` helpers return plain objects for a response body.
 */
export default class ShareTransformer extends BaseTransformer<Share> {
  /** The completed files of a share, sorted by name then id (`files` must be preloaded). */
  static completedFiles(share: Share): ShareFile[] {
    return [...(share.files ?? [])]
      .filter((file) => file.completed)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id.localeCompare(b.id)))
  }

  /** `{id, name, expiration, description}` of a created or completed share. */
  toCreated(): CreatedShare {
    return {
      id: this.resource.id,
      name: this.resource.name ?? null,
      expiration: serializeExpiration(this.resource.expiration),
      description: this.resource.description ?? null,
    }
  }

  /** The "share" object; needs `files`, `security` and `creator` preloaded. */
  toObject(): ShareObject {
    const files = ShareTransformer.completedFiles(this.resource)
    return {
      ...this.toCreated(),
      hasPassword: Boolean(this.resource.security?.password),
      creator: this.resource.creator ? { username: this.resource.creator.username } : null,
      files: files.map((file) => ShareFileTransformer.toJSON(file)),
      size: totalSize(files),
    }
  }

  /** The "my share" object; needs `files`, `security` and `recipients` preloaded. */
  toMyShare(): MyShare {
    const files = ShareTransformer.completedFiles(this.resource)
    const security: MyShare['security'] = {
      passwordProtected: Boolean(this.resource.security?.password),
    }
    if (this.resource.security?.maxViews) security.maxViews = this.resource.security.maxViews
    return {
      ...this.toCreated(),
      size: totalSize(files),
      views: this.resource.views,
      createdAt: this.resource.createdAt.toUTC().toISO()!,
      recipients: (this.resource.recipients ?? []).map((recipient) => recipient.email),
      files: files.map((file) => ShareFileTransformer.toJSON(file)),
      security,
    }
  }

  /** The "admin share" object; needs `files` and `creator` preloaded. */
  toAdminShare(): AdminShare {
    return {
      ...this.toCreated(),
      size: totalSize(ShareTransformer.completedFiles(this.resource)),
      views: this.resource.views,
      createdAt: this.resource.createdAt.toUTC().toISO()!,
      creator: this.resource.creator ? { username: this.resource.creator.username } : null,
    }
  }

  /** What the share edit page needs beyond the "share" object; needs `security` loaded. */
  toEditSettings(): ShareEditSettings {
    return {
      maxViews: this.resource.security?.maxViews ?? null,
      expirationFixed: this.resource.reverseShareId !== null,
    }
  }

  /** Plain "share" object for a response body. */
  static toJSON(share: Share): ShareObject {
    return new ShareTransformer(share).toObject()
  }

  /** Plain "created/completed share" object. */
  static toCreatedJSON(share: Share): CreatedShare {
    return new ShareTransformer(share).toCreated()
  }

  /** Plain "my share" object. */
  static toMyShareJSON(share: Share): MyShare {
    return new ShareTransformer(share).toMyShare()
  }

  /** Plain "admin share" object. */
  static toAdminJSON(share: Share): AdminShare {
    return new ShareTransformer(share).toAdminShare()
  }

  /** Plain edit-page settings of a share. */
  static toEditSettingsJSON(share: Share): ShareEditSettings {
    return new ShareTransformer(share).toEditSettings()
  }
}
