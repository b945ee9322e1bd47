/**
 * The malformed-input corpus: hostile values, how they are put
 * into a request, a parallel runner, and a sequential one that checks after
 * each refused request that the tables it could write are unchanged.
 *
 * ```ts
 * const before = await snapshotState()
 * const results = await runCorpus(requests, 8)
 * assert.deepEqual(await snapshotState(), before)
 * ```
 */
import { request as httpRequest } from 'node:http'
import { uniqueIp } from '#tests/helpers/auth'
import { tableLines } from '#tests/helpers/state_snapshot'

/** A hostile JSON value, as JSON text (so `1e309`, lone surrogates and absurd nesting can be sent). */
export interface HostileValue {
  label: string
  json: string
}

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** Hostile values for any JSON field: wrong types, edge numbers, odd strings, nesting. */
export const HOSTILE_VALUES: HostileValue[] = [
  ...Object.entries({
    'true': 'true',
    'false': 'false',
    'empty array': '[]',
    'array': '[1,"a"]',
    'object': '{"a":1}',
    'operator object': '{"$gt":""}',
    'minus one': '-1',
    'minus zero': '-0',
    'fraction': '1.5',
    'int32 overflow': '2147483648',
    'unsafe integer': '9007199254740993',
    'huge': '1e21',
    'infinity': '1e309',
    'tiny': '5e-324',
    'NaN string': '"NaN"',
    'Infinity string': '"Infinity"',
    'hex string': '"0x10"',
    'blank': '" "',
    'long string': JSON.stringify('x'.repeat(20_000)),
    'lone high surrogate': '"a\\ud800b"',
    'lone low surrogate': '"\\udc00"',
    'NUL': '"a\\u0000b"',
    'RTL override': '"\\u202egnp.exe"',
    'path traversal': '"../../../../etc/passwd"',
    'encoded traversal': '"..%2f..%2fetc%2fpasswd"',
    'SQL': `"' OR 1=1; DROP TABLE users; --"`,
    'expiration overflow': '"275761-years"',
    'year 10000': '"8000-years"',
    'nested 40': deep(40),
    'proto': '{"__proto__":{"isAdmin":true}}',
  }).map(([label, json]) => ({ label, json })),
]

/** Hostile strings for a path segment or a query value (already percent-encoded where needed). */
export const HOSTILE_SEGMENTS: string[] = [
  '%00',
  'a%00b',
  '%20',
  '%22',
  '%27',
  '%E2%80%AE',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  '%2e%2e',
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  'x'.repeat(4000),
  '-1',
  '0x10',
  '1e309',
  'NaN',
  '%3Cscript%3E',
  '%25',
]

/** Whole bodies that no JSON route accepts: broken JSON, wrong shapes, wrong or missing content types. */
export const HOSTILE_BODIES: { label: string; body: string | Uint8Array; contentType?: string }[] =
  [
    { label: 'truncated JSON', body: '{"a": ' },
    { label: 'trailing comma', body: '{"a": 1,}' },
    { label: 'single quotes', body: "{'a': 1}" },
    { label: 'JSON string', body: '"text"' },
    { label: 'JSON number', body: '12' },
    { label: 'JSON null', body: 'null' },
    { label: 'deep array', body: deep(100_000) },
    { label: 'deep object', body: '{"a":'.repeat(60_000) + '1' + '}'.repeat(60_000) },
    { label: 'BOM', body: '\ufeff{"a":1}' },
    { label: 'invalid UTF-8', body: new Uint8Array(Buffer.from('{"a":"\xff\xfe"}', 'latin1')) },
    {
      label: 'form body',
      body: 'a=1&a[b]=2&__proto__[x]=1',
      contentType: 'application/x-www-form-urlencoded',
    },
    { label: 'xml', body: '<a>1</a>', contentType: 'application/xml' },
    { label: 'multipart without boundary', body: '--x\r\n', contentType: 'multipart/form-data' },
    { label: 'text', body: '{"a":1}', contentType: 'text/plain' },
  ]

/** One request of the corpus. */
export interface CorpusRequest {
  label: string
  method: string
  path: string
  body?: string | Uint8Array
  contentType?: string
  headers?: Record<string, string>
  /** A 2xx is an acceptable answer (read-only routes, neutral replies). */
  mayAccept?: boolean
}

/** The answer to one corpus request. */
export interface CorpusResult {
  request: CorpusRequest
  status: number
  /** Why the answer is not acceptable, or null. */
  problem: string | null
}

/** Checks one answer: < 500, and a 4xx carries a JSON body with a message (or is a redirect). */
function problemOf(
  request: CorpusRequest,
  status: number,
  type: string,
  text: string
): string | null {
  if (status >= 500) return `${status}: ${text.slice(0, 200)}`
  if (status >= 200 && status < 300 && !request.mayAccept)
    return `accepted with ${status}: ${text.slice(0, 120)}`
  if (status < 400) return null
  if (!type.includes('json')) return `${status} without JSON (${type})`
  const body = JSON.parse(text)
  const message = [body.message].flat().join(' ')
  return typeof message === 'string' && message.length > 0 ? null : `${status} without a message`
}

/**
 * Sends one request with node:http, which sends the path as written (fetch
 * would resolve `..` and `%2e%2e`, turning `DELETE .../apiTokens/..` into
 * another route), with a fresh client IP so rate limits answer for the
 * input, not for the burst.
 */
export function send(request: CorpusRequest, cookies: string | null): Promise<CorpusResult> {
  const headers: Record<string, string> = { 'x-forwarded-for': uniqueIp(), ...request.headers }
  const body = request.body === undefined ? undefined : Buffer.from(request.body)
  if (body) {
    headers['content-type'] = request.contentType ?? 'application/json'
    headers['content-length'] = String(body.length)
  }
  if (cookies) headers.cookie = cookies
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: process.env.HOST,
        port: Number(process.env.PORT),
        method: request.method,
        path: request.path,
        headers,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const status = response.statusCode ?? 0
          const type = String(response.headers['content-type'] ?? '')
          resolve({ request, status, problem: problemOf(request, status, type, text) })
        })
      }
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** Runs `requests` (each with its caller's cookies) `parallel` at a time; answers in order. */
export async function runCorpus(
  requests: { request: CorpusRequest; cookies: string | null }[],
  parallel: number
): Promise<CorpusResult[]> {
  const results: CorpusResult[] = new Array(requests.length)
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const index = next++
      results[index] = await send(requests[index].request, requests[index].cookies)
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return results
}

/**
 * Runs `requests` one by one, comparing `tables` around each: a refused
 * request (4xx) that changed them is a problem ("refused but stored").
 * Accepted ones may store what they were sent.
 */
export async function runWithTableChecks(
  requests: { request: CorpusRequest; cookies: string | null }[],
  tables: string[]
) {
  const results: CorpusResult[] = []
  for (const { request, cookies } of requests) {
    const before = await tableLines(tables)
    const result = await send(request, cookies)
    if (result.status >= 400 && result.problem === null && (await tableLines(tables)) !== before) {
      result.problem = `refused with ${result.status} but stored something`
    }
    results.push(result)
  }
  return results
}
