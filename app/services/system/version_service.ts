/**
 * The version page of the admin panel: Tern's built-in version and the
 * latest published release, read from `general.releaseSource` (a GitHub-style
 * "latest release" API URL) while `general.checkForUpdates` is on.
 *
 * The release source is asked server-side with a short timeout and its answer
 * is kept in memory (a pure cache: losing it only costs one more request), so
 * admins opening the page do not each wait for it. A source that is
 * unreachable, slow, answers an error or something unreadable gives "no known
 * latest version", never an error.
 *
 * ```ts
 * import VersionService from '#services/system/version_service'
 *
 * const status = await (await app.container.make(VersionService)).status()
 * // { version: '0.23.1', release: { version: '0.24.0', url: 'https://...' } }
 * VersionTransformer.toJSON(status)
 * // { version: '0.23.1', latestVersion: '0.24.0', updateAvailable: true, releaseUrl: 'https://...' }
 * ```
 */
import { configSnapshot } from '#services/config/config_service'
import { compareVersions } from '#extensions/plugins/semver'

/** The version of this build of Tern, compared with the latest release for the new-release notice. */
export const TERN_VERSION = '0.23.1'

/** What the release source said about its latest release. */
export interface LatestRelease {
  version: string
  url: string | null
}

/** The running version and the latest release known (null when unknown or the check is off). */
export interface VersionStatus {
  version: string
  release: LatestRelease | null
}

/** Tuning of `VersionService` (the defaults are the production values). */
export interface VersionServiceOptions {
  /** How long the release source may take to answer, in ms (default 3000). */
  timeoutMs?: number
  /** How long a successful answer is reused, in ms (default 1 hour). */
  cacheMs?: number
  /** How long a failed check is remembered before asking again, in ms (default 5 minutes). */
  failureCacheMs?: number
  /** Largest answer read, in bytes (default 1 MB); a larger one counts as a failure. */
  maxBytes?: number
}

interface CacheEntry {
  release: LatestRelease | null
  expiresAt: number
}

/**
 * See the module comment. One per process (it caches the answers): the
 * container holds it as a singleton (providers/tern_provider.ts), so resolve
 * or inject it; `new VersionService(options)` is for tests.
 */
export default class VersionService {
  readonly #timeoutMs: number
  readonly #cacheMs: number
  readonly #failureCacheMs: number
  readonly #maxBytes: number
  /** Answers by release source URL. */
  #cache = new Map<string, CacheEntry>()
  /** Checks under way by release source URL, so concurrent callers share one request. */
  #pending = new Map<string, Promise<LatestRelease | null>>()

  constructor(options: VersionServiceOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 3000
    this.#cacheMs = options.cacheMs ?? 60 * 60 * 1000
    this.#failureCacheMs = options.failureCacheMs ?? 5 * 60 * 1000
    this.#maxBytes = options.maxBytes ?? 1_000_000
  }

  /**
   * The running version and what is known about the latest release (null
   * when unknown or the check is off). Never throws for the release source.
   * `VersionTransformer` makes the API object of it.
   */
  async status(): Promise<VersionStatus> {
    const config = await configSnapshot()
    const release = config.get('general.checkForUpdates')
      ? await this.latestRelease(config.get('general.releaseSource'))
      : null
    return { version: TERN_VERSION, release }
  }

  /**
   * The latest release announced by `source`, from the cache when fresh;
   * null when the source gave no usable answer (within the timeout).
   */
  async latestRelease(source: string): Promise<LatestRelease | null> {
    const cached = this.#cache.get(source)
    if (cached && cached.expiresAt > Date.now()) return cached.release

    let pending = this.#pending.get(source)
    if (!pending) {
      pending = this.#fetch(source).then((release) => {
        this.#cache.set(source, {
          release,
          expiresAt: Date.now() + (release ? this.#cacheMs : this.#failureCacheMs),
        })
        this.#pending.delete(source)
        return release
      })
      this.#pending.set(source, pending)
    }
    return pending
  }

  /** Forgets every cached answer (the next `info()` asks the source again). */
  clearCache(): void {
    this.#cache.clear()
  }

  async #fetch(source: string): Promise<LatestRelease | null> {
    try {
      const response = await fetch(source, {
        headers: {
          'Accept': 'application/vnd.github+json, application/json',
          'User-Agent': `Tern/${TERN_VERSION}`,
        },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
      if (!response.ok || !response.body) {
        await response.body?.cancel()
        return null
      }
      const text = await readLimited(response.body, this.#maxBytes)
      return text === null ? null : parseRelease(JSON.parse(text))
    } catch {
      return null
    }
  }
}

/** Reads a body as UTF-8 text, or null (and stops reading) past `maxBytes`. */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  maxBytes: number
): Promise<string | null> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > maxBytes) {
      await body.cancel().catch(() => {})
      return null
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Reads a GitHub-style release: `{tag_name, html_url}` (or a list of them,
 * the first one counting). Returns null when there is no usable tag.
 */
export function parseRelease(body: unknown): LatestRelease | null {
  const release = Array.isArray(body) ? body[0] : body
  if (!release || typeof release !== 'object') return null
  const { tag_name: tag, html_url: url } = release as { tag_name?: unknown; html_url?: unknown }
  if (typeof tag !== 'string') return null
  const version = tag.trim().replace(/^v(?=\d)/, '')
  if (version === '' || version.length > 100) return null
  return { version, url: isHttpUrl(url) ? url : null }
}

/** True when `latest` is newer than `current`; for tags that are not semver, when they differ. */
export function isNewer(latest: string, current: string): boolean {
  const comparison = compareVersions(latest, current)
  return comparison === undefined ? latest !== current : comparison > 0
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}
