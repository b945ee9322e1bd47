/**
 * Generates the malformed-input corpus from a table of routes: each JSON
 * field, query value and path parameter replaced by each hostile value, each
 * JSON route sent each hostile body, routes called with forged cookies, and
 * downloads and uploads sent hostile headers.
 */
import {
  HOSTILE_BODIES,
  HOSTILE_SEGMENTS,
  HOSTILE_VALUES,
  type CorpusRequest,
} from '#tests/helpers/malformed_corpus'

/** A body template: JSON text leaves (or functions making one per request), or nested objects of them. */
export interface BodyTemplate {
  [field: string]: string | (() => string) | BodyTemplate
}

/** One route of the API with a baseline request. */
export interface CorpusRoute {
  method: string
  /** With `:param` placeholders, filled from `params`. */
  path: string
  role: 'anon' | 'user' | 'admin'
  params?: Record<string, string>
  /** Query values (plain text, encoded when sent). */
  query?: Record<string, string>
  body?: BodyTemplate
  /** The body is `[body]` (PATCH /api/configs/admin). */
  arrayBody?: boolean
  /** A raw `application/octet-stream` body instead of JSON (chunk uploads). */
  raw?: string
  /** Extra cookies sent with the caller's (a share token). */
  cookies?: string
  /** A 2xx answer is fine (read-only or neutral routes). */
  mayAccept?: boolean
  /** Hostile value labels (or `missing`) that are valid for a field (`field` or `parent.field`). */
  skip?: Record<string, string[]>
  /**
   * The route checks or hashes a password (a slow hash) once the body is
   * valid: short plain strings, which only make another password (or fail a
   * stricter rule), are not sent.
   */
  checksPassword?: boolean
  /** An empty body is a valid no-op (PATCH): a body that parses to nothing may answer 2xx. */
  emptyBodyIsValid?: boolean
}

/** What `buildCorpus` needs besides the routes. */
export interface CorpusFixtures {
  downloadPath: string
  token: string
  draft: string
}

/** A corpus request with the cookies of its caller. */
export type Caller = { request: CorpusRequest; cookies: string | null }

const HOSTILE_RANGES = [
  'bytes=18446744073709551616-',
  'bytes=-18446744073709551616',
  'bytes=99999999999999999999999-1',
  'bytes=1-0',
  'bytes=0-0,1-1,2-2',
  'bytes=--1',
  'bits=0-1',
  `bytes=${'9'.repeat(5000)}-`,
  'bytes=abc',
  'bytes=5000-',
  'bytes=',
]
const HOSTILE_KEYS = [' ', 'x'.repeat(65), '../x', 'a b', "'", '%00', 'k'.repeat(5000)]
const FORGED_COOKIES = [
  'access_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwiaXNBZG1pbiI6dHJ1ZX0.',
  'access_token=%00; refresh_token=x',
  'share_x_token=garbage; reverse_share_token=%27; tern_share_owner=..%2F..',
]

/** Every leaf of a template as a dotted path. */
function leaves(template: BodyTemplate, prefix = ''): string[] {
  return Object.entries(template).flatMap(([key, value]) =>
    typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [prefix + key]
  )
}

/** JSON text of `template` with the leaf at `path` replaced by `json` (or removed when null). */
function render(template: BodyTemplate, path?: string, json?: string | null, prefix = ''): string {
  const parts = Object.entries(template).flatMap(([key, value]) => {
    const here = prefix + key
    if (here === path && json === null) return []
    const leaf = (text: string | (() => string)) => (typeof text === 'string' ? text : text())
    const text =
      here === path
        ? json!
        : typeof value === 'object'
          ? render(value, path, json, `${here}.`)
          : leaf(value)
    return [`${JSON.stringify(key)}:${text}`]
  })
  return `{${parts.join(',')}}`
}

function fillPath(route: CorpusRoute, override?: [string, string]): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) =>
    override && override[0] === name ? override[1] : encodeURIComponent(route.params![name])
  )
}

function queryString(query: Record<string, string>, override?: [string, string]): string {
  const parts = Object.entries(query).map(([key, value]) =>
    override && override[0] === key ? override[1] : `${key}=${encodeURIComponent(value)}`
  )
  return parts.length ? `?${parts.join('&')}` : ''
}

/** `route` with each JSON field replaced by each hostile value (and left out), as `caller`. */
export function fieldMutations(route: CorpusRoute, caller: string | null): Caller[] {
  if (!route.body) return []
  const out: Caller[] = []
  const path = fillPath(route) + queryString(route.query ?? {})
  const wrap = (json: string) => (route.arrayBody ? `[${json}]` : json)
  const add = (label: string, body: string) =>
    out.push({
      request: { label, method: route.method, path, body, mayAccept: route.mayAccept },
      cookies: caller,
    })
  const wrongPasswordOnly = (json: string) => route.checksPassword && /^"[^\\]{0,100}"$/.test(json)
  for (const field of leaves(route.body)) {
    for (const value of HOSTILE_VALUES) {
      if (!route.skip?.[field]?.includes(value.label) && !wrongPasswordOnly(value.json))
        add(`${field} = ${value.label}`, wrap(render(route.body, field, value.json)))
    }
    if (!route.skip?.[field]?.includes('missing'))
      add(`${field} missing`, wrap(render(route.body, field, null)))
  }
  return out
}

/** The whole corpus of `routes`, each request with the cookies of its caller. */
export function buildCorpus(
  routes: CorpusRoute[],
  cookies: Record<CorpusRoute['role'], string | null>,
  fixtures: CorpusFixtures
): Caller[] {
  const out: Caller[] = []
  for (const route of routes) {
    const caller = [cookies[route.role], route.cookies].filter(Boolean).join('; ') || null
    const base: CorpusRequest = {
      label: 'baseline',
      method: route.method,
      path: fillPath(route) + queryString(route.query ?? {}),
      mayAccept: route.mayAccept,
    }
    const wrap = (json: string) => (route.arrayBody ? `[${json}]` : json)
    const add = (request: Partial<CorpusRequest> & { label: string }, as = caller) => {
      const withBody =
        request.body === undefined && route.raw !== undefined
          ? { body: route.raw, contentType: 'application/octet-stream' }
          : request.body === undefined && route.body
            ? { body: wrap(render(route.body)) }
            : {}
      out.push({ request: { ...base, ...withBody, ...request }, cookies: as })
    }

    out.push(...fieldMutations(route, caller))
    if (route.method !== 'GET') {
      for (const hostile of HOSTILE_BODIES) {
        const mayAccept = route.mayAccept || route.emptyBodyIsValid
        add({
          label: `body: ${hostile.label}`,
          body: hostile.body,
          contentType: hostile.contentType,
          mayAccept,
        })
      }
    }
    for (const name of Object.keys(route.params ?? {})) {
      for (const segment of HOSTILE_SEGMENTS) {
        const path = fillPath(route, [name, segment]) + queryString(route.query ?? {})
        add({ label: `:${name} = ${segment.slice(0, 30)}`, path })
        if (route.role !== 'anon')
          add({ label: `anonymous, :${name} = ${segment.slice(0, 30)}`, path }, null)
      }
    }
    for (const key of Object.keys(route.query ?? {})) {
      const forms = [
        ...HOSTILE_SEGMENTS.map((value) => `${key}=${value}`),
        `${key}[]=1`,
        `${key}[a]=1`,
        key,
        `${key}=`,
      ]
      for (const form of forms)
        add({
          label: `?${form.slice(0, 30)}`,
          path: fillPath(route) + queryString(route.query!, [key, form]),
        })
    }
    for (const forged of FORGED_COOKIES)
      add({ label: `forged cookie ${forged.slice(0, 20)}` }, forged)
    add({ label: 'forged bearer', headers: { authorization: 'Bearer tern_garbage' } }, null)
  }
  for (const range of HOSTILE_RANGES) {
    const headers = { 'range': range, 'if-range': '"garbage"' }
    out.push({
      request: {
        label: `range ${range.slice(0, 30)}`,
        method: 'GET',
        path: fixtures.downloadPath,
        headers,
        mayAccept: true,
      },
      cookies: fixtures.token,
    })
  }
  for (const key of HOSTILE_KEYS) {
    const path = `/api/shares/${fixtures.draft}/files?name=a.txt&chunkIndex=1&totalChunks=2`
    out.push({
      request: {
        label: `idempotency key ${key.slice(0, 20)}`,
        method: 'POST',
        path,
        body: 'x',
        contentType: 'application/octet-stream',
        headers: { 'idempotency-key': key },
      },
      cookies: cookies.user,
    })
  }
  return out
}
