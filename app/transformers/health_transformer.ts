/** Shapes the answers of the health routes (`/api/health`, `/api/health/live`, `/api/health/ready`). */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type { Readiness } from '#services/system/readiness'
import type { HealthFailure, HealthStatus } from '#api/system'

export type { HealthFailure, HealthStatus }

/** Turns the readiness checks into the probe's answer: `{status: 'ok', checks}` or the 503 body naming what fails. */
export default class HealthTransformer extends BaseTransformer<Readiness> {
  /** The readiness answer. */
  toObject(): HealthStatus | HealthFailure {
    const { ready, checks } = this.resource
    if (ready) return { status: 'ok', checks }
    const failed = Object.entries(checks)
      .filter(([, result]) => result.status === 'failed')
      .map(([name]) => name)
    return { ...HealthTransformer.failure(`Not ready: ${failed.join(', ')} failing`), checks }
  }

  /** Plain readiness answer for a response body. */
  static toJSON(readiness: Readiness): HealthStatus | HealthFailure {
    return new HealthTransformer(readiness).toObject()
  }

  /** The liveness answer. */
  static live(): HealthStatus {
    return { status: 'ok' }
  }

  /** A 503 body saying what is unavailable. */
  static failure(message: string): HealthFailure {
    return { statusCode: 503, message, error: 'Service Unavailable' }
  }
}
