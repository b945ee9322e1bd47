/** Shapes the version page's object (`GET /api/configs/admin/version`). */
import { BaseTransformer } from '@adonisjs/core/transformers'
import { isNewer, type VersionStatus } from '#services/system/version_service'
import type { VersionInfo } from '#api/system'

export type { VersionInfo }

/** Turns the running version and the latest known release into `VersionInfo`. */
export default class VersionTransformer extends BaseTransformer<VersionStatus> {
  /** The version object: `updateAvailable` when the latest release is newer than the running version. */
  toObject(): VersionInfo {
    const { version, release } = this.resource
    return {
      version,
      latestVersion: release?.version ?? null,
      updateAvailable: release !== null && isNewer(release.version, version),
      releaseUrl: release?.url ?? null,
    }
  }

  /** Plain version object for a response body. */
  static toJSON(status: VersionStatus): VersionInfo {
    return new VersionTransformer(status).toObject()
  }
}
