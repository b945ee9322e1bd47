/**
 * The system objects of the HTTP API: the version page (`GET
 * /api/configs/admin/version`) and the health probes (`/api/health*`),
 * shared by the server's transformers and the browser code (`#api/system`).
 * Plain types only.
 */

/** The answer of `GET /api/configs/admin/version`. */
export interface VersionInfo {
  /** The running version. */
  version: string
  /** The latest release's version (tag without a leading `v`); null when unknown or the check is off. */
  latestVersion: string | null
  /** True when the latest release is newer than the running version (or differs, for tags that are not semver). */
  updateAvailable: boolean
  /** The latest release's web page (http/https), or null. */
  releaseUrl: string | null
}

/** The state of one readiness check. */
export interface HealthCheckResult {
  status: 'ok' | 'failed' | 'skipped'
  /** Why it failed, in words safe to show (never a driver's internals). */
  message?: string
  durationMs: number
}

/** The checks of `GET /api/health/ready`, by dependency. */
export type HealthChecks = Record<
  'database' | 'migrations' | 'redis' | 'storage',
  HealthCheckResult
>

/** `GET /api/health/live`, and `GET /api/health/ready` when every check passes. */
export interface HealthStatus {
  status: 'ok'
  /** Each check's state (readiness only). */
  checks?: HealthChecks
}

/** A 503 answer of the health routes: the API's error body, plus the checks for readiness. */
export interface HealthFailure {
  statusCode: 503
  message: string
  error: 'Service Unavailable'
  checks?: HealthChecks
}
