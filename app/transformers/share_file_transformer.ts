/**
 * The file objects of the shares API: a file of a share as `{id, name, size}`
 * (size as a decimal string of bytes).
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type ShareFile from '#models/share_file'
import type { ShareFileInfo } from '#api/share'

/** Turns a `ShareFile` into the API's file object (`ShareFileTransformer.toJSON(file)`). */
export default class ShareFileTransformer extends BaseTransformer<ShareFile> {
  /** `{id, name, size}`. */
  toObject(): ShareFileInfo {
    return { id: this.resource.id, name: this.resource.name, size: String(this.resource.size) }
  }

  /** Plain file object for a response body. */
  static toJSON(file: ShareFile): ShareFileInfo {
    return new ShareFileTransformer(file).toObject()
  }
}
