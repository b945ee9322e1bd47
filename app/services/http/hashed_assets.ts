/**
 * Vite's build output under /assets/: every file name
 * there carries a content hash, so an answer is cached by browsers for a year
 * (`immutable`), and its brotli and gzip forms are made once per file and
 * kept in memory instead of being compressed again for every visitor.
 * A file's first request gets brotli quality 5 (about 20 ms of CPU for the
 * 545 KB main chunk); quality 11 (about 0.9 s for it, 10 % smaller) is then
 * made once in the background, on libuv's thread pool, and replaces it. Each
 * process of a cluster keeps its own copy.
 *
 * Entries are keyed by path and checked against the file's size and mtime on
 * every request (one stat), so a rebuild in place is noticed; the cache is a
 * least-recently-used map bounded in bytes (all forms counted). Files larger
 * than `maxFileBytes` are left to the static middleware (same Cache-Control
 * through config/static.ts). The SSR bundle (`server/`) and Vite's manifests
 * (`.vite/`) live in the same folder for the server's own use and are never
 * served: `isPrivate` says so, the middleware answers 404.
 *
 * Written here rather than taken from a library: the maintained static
 * servers for node either compress per request (compression + serve-static)
 * or serve `.br`/`.gz` files that a build step writes (express-static-gzip,
 * @fastify/static), and the build (vite.config.ts) is not this part's; this
 * is a bounded map plus zlib. Content types come from mime-db
 * (`@adonisjs/core/http/helpers`' mime), what is worth compressing from
 * `compressible`, the client's encodings from `negotiator`.
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, join, normalize, posix, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import compressible from 'compressible'
import Negotiator from 'negotiator'
import { mime } from '@adonisjs/core/http/helpers'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export interface HashedAssetsOptions {
  /** The folder Vite builds into (config/vite.ts' buildDirectory). */
  root: string
  /** Sub-folders (relative, with a trailing slash) that are never served. */
  privateFolders: string[]
  /** Bound of the in-memory cache, all forms of all entries (bytes). */
  maxCacheBytes: number
  /** Files above this size are not cached here (bytes). */
  maxFileBytes: number
  /** Cache-Control of hashed files. */
  cacheControl: string
  /** Cache-Control of files without a hash in their name (revalidated by ETag). */
  revalidateCacheControl: string
}

/** What a request says that the answer depends on. */
export interface AssetRequest {
  method: string
  headers: { 'accept-encoding'?: string; 'if-none-match'?: string }
}

export interface AssetAnswer {
  status: 200 | 304
  headers: Record<string, string>
  /** null for 304 (a HEAD gets the body too: node's http leaves it out and keeps Content-Length). */
  body: Buffer | null
}

type Encoding = 'br' | 'gzip' | 'identity'

interface Entry {
  size: number
  mtimeMs: number
  type: string
  /** Quoted strong tag of the content; the encoded forms add a suffix. */
  tag: string
  forms: Partial<Record<Encoding, Buffer>>
  bytes: number
  /** Whether the forms are the final (slow, smallest) ones. */
  final: boolean
}

/** Vite's `[name]-[hash].[ext]` (8 characters of base64url by default). */
const HASHED_NAME = /[-.][\w-]{8,}\.[a-z0-9]+$/i

/** Below this, compressing gains less than the headers it adds. */
const MIN_COMPRESS_BYTES = 1024

/** Brotli quality and gzip level of a file's first answer, then of the kept forms. */
const FAST = { brotli: 5, gzip: 6 }
const FINAL = { brotli: zlib.BROTLI_MAX_QUALITY, gzip: 9 }

function sizeOf(forms: Entry['forms']): number {
  return Object.values(forms).reduce((sum, form) => sum + form.length, 0)
}

export default class HashedAssets {
  #entries = new Map<string, Entry>()
  #building = new Map<string, Promise<Entry>>()
  #bytes = 0

  constructor(private options: HashedAssetsOptions) {}

  /**
   * Whether `relPath` (below the root, as in the URL: percent-encoded, maybe
   * with `.`/`..`/empty segments that a static server would resolve) lies in
   * a folder that is never served. A path that cannot be decoded is not.
   */
  isPrivate(relPath: string): boolean {
    let decoded: string
    try {
      decoded = decodeURIComponent(relPath)
    } catch {
      return false
    }
    const clean = posix.normalize(`/${decoded.replaceAll('\\', '/')}`).replace(/^\/+/, '')
    return this.options.privateFolders.some(
      (folder) => clean === folder.replace(/\/$/, '') || clean.startsWith(folder)
    )
  }

  /** Whether the file at `relPath` is named by its content (cached for a year). */
  isHashed(relPath: string): boolean {
    return HASHED_NAME.test(relPath)
  }

  /** Total bytes held (all forms), for tests and bounds. */
  get cachedBytes(): number {
    return this.#bytes
  }

  /**
   * The answer to GET/HEAD of `relPath` (URL path below /assets/, still
   * percent-encoded), or null when this is not a servable file here (missing,
   * a folder, private, too large, outside the root): the caller passes on.
   */
  async answer(relPath: string, request: AssetRequest): Promise<AssetAnswer | null> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null
    const file = this.#resolve(relPath)
    if (!file) return null
    const info = await stat(file.absolute).catch(() => null)
    if (!info || !info.isFile() || info.size > this.options.maxFileBytes) return null
    const entry = await this.#entry(file.relative, file.absolute, info.size, info.mtimeMs)

    const encoding = this.#negotiate(request, entry)
    // The encoded bytes change when the final forms replace the first ones: a weak tag.
    const etag = encoding === 'identity' ? entry.tag : `W/${entry.tag.slice(0, -1)}-${encoding}"`
    const headers: Record<string, string> = {
      'Cache-Control': this.isHashed(file.relative)
        ? this.options.cacheControl
        : this.options.revalidateCacheControl,
      'ETag': etag,
    }
    if (entry.forms.br || entry.forms.gzip) headers['Vary'] = 'Accept-Encoding'
    if (this.#matches(request.headers['if-none-match'], entry.tag)) {
      return { status: 304, headers, body: null }
    }
    const body = entry.forms[encoding]!
    headers['Content-Type'] = entry.type
    headers['Content-Length'] = String(body.length)
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding
    return { status: 200, headers, body }
  }

  /** The file below the root that `relPath` names, or null (private, dot or `..` segments, bad encoding). */
  #resolve(relPath: string): { relative: string; absolute: string } | null {
    let decoded: string
    try {
      decoded = decodeURIComponent(relPath)
    } catch {
      return null
    }
    if (decoded.includes('\0') || decoded.includes('\\')) return null
    const segments = decoded.split('/').filter((segment) => segment !== '')
    if (segments.length === 0 || segments.some((segment) => segment.startsWith('.'))) return null
    const relativePath = segments.join('/')
    if (this.isPrivate(encodeURIComponent(relativePath))) return null
    const absolute = normalize(join(this.options.root, ...segments))
    const inside = relative(this.options.root, absolute)
    if (!inside || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside))
      return null
    return { relative: relativePath, absolute }
  }

  /** br when accepted (and made), then gzip, else identity; q=0 excludes an encoding. */
  #negotiate(request: AssetRequest, entry: Entry): Encoding {
    const available = (['br', 'gzip'] as const).filter((encoding) => entry.forms[encoding])
    if (available.length === 0) return 'identity'
    const chosen = new Negotiator(request).encoding([...available, 'identity'], {
      preferred: ['br', 'gzip'],
    })
    return chosen === 'br' || chosen === 'gzip' ? chosen : 'identity'
  }

  /** True when an If-None-Match header names the content (any of its encoded forms, weak or strong) or is `*`. */
  #matches(header: string | undefined, tag: string): boolean {
    if (!header) return false
    const bare = tag.slice(1, -1)
    return header.split(',').some((value) => {
      const candidate = value.trim().replace(/^W\//, '')
      return (
        candidate === '*' || candidate === tag || /^"(.*)-(br|gzip)"$/.exec(candidate)?.[1] === bare
      )
    })
  }

  /** The cached entry when current, else one read and compressed once (concurrent requests share it). */
  async #entry(key: string, absolute: string, size: number, mtimeMs: number): Promise<Entry> {
    const cached = this.#entries.get(key)
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) {
      // Least recently used first: re-inserting moves it to the end.
      this.#entries.delete(key)
      this.#entries.set(key, cached)
      return cached
    }
    const buildKey = `${key}\0${size}\0${mtimeMs}`
    let building = this.#building.get(buildKey)
    if (!building) {
      building = this.#build(absolute, size, mtimeMs).finally(() => this.#building.delete(buildKey))
      this.#building.set(buildKey, building)
    }
    const entry = await building
    // Another request for the same build may have stored it (and its final forms) already.
    const current = this.#entries.get(key)
    if (current && current.size === size && current.mtimeMs === mtimeMs) return current
    this.#store(key, entry)
    if (!entry.final) this.#finish(key, entry)
    return entry
  }

  /** Reads the file and makes its first forms (fast settings; final when nothing is compressed). */
  async #build(absolute: string, size: number, mtimeMs: number): Promise<Entry> {
    const content = await readFile(absolute)
    const found = mime.lookup(absolute) || 'application/octet-stream'
    const type =
      found.startsWith('text/') || found === 'application/javascript'
        ? `${found}; charset=utf-8`
        : found
    const tag = `"${createHash('sha1').update(content).digest('base64url').slice(0, 22)}"`
    const worth = content.length >= MIN_COMPRESS_BYTES && compressible(found) === true
    const forms = worth ? await this.#compress(content, found, FAST) : { identity: content }
    return { size, mtimeMs, type, tag, forms, bytes: sizeOf(forms), final: !worth }
  }

  /** Makes the final forms in the background once; they replace the first ones if the file is unchanged. */
  #finish(key: string, first: Entry) {
    first.final = true
    this.#compress(first.forms.identity!, first.type.split(';')[0], FINAL)
      .then((forms) => {
        if (this.#entries.get(key) !== first) return
        this.#store(key, { ...first, forms, bytes: sizeOf(forms) })
      })
      .catch(() => {})
  }

  /** identity plus the brotli and gzip forms that are smaller than it. */
  async #compress(content: Buffer, type: string, settings: { brotli: number; gzip: number }) {
    const [br, gz] = await Promise.all([
      brotliAsync(content, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: settings.brotli,
          [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
          [zlib.BROTLI_PARAM_MODE]: type.startsWith('font/')
            ? zlib.BROTLI_MODE_FONT
            : zlib.BROTLI_MODE_TEXT,
        },
      }),
      gzipAsync(content, { level: settings.gzip }),
    ])
    const forms: Entry['forms'] = { identity: content }
    if (br.length < content.length) forms.br = br
    if (gz.length < content.length) forms.gzip = gz
    return forms
  }

  #store(key: string, entry: Entry) {
    const previous = this.#entries.get(key)
    if (previous === entry) return
    if (previous) {
      this.#entries.delete(key)
      this.#bytes -= previous.bytes
    }
    if (entry.bytes > this.options.maxCacheBytes) return
    this.#entries.set(key, entry)
    this.#bytes += entry.bytes
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.options.maxCacheBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= old.bytes
    }
  }
}
