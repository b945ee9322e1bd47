/**
 * Requests whose bodies are kept exactly as sent (node:http neither asks for
 * nor decodes compressed bodies, unlike fetch), and their decoding: the
 * compression and hashed-asset tests compare bytes on the wire.
 */
import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'

export interface WireResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** The body as sent, still encoded. */
  wire: Buffer
}

/** One request to `base` (an origin URL); `path` is sent as is (a URL would resolve `.`/`..` segments). */
export function wireRequest(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET'
): Promise<WireResponse> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          wire: Buffer.concat(chunks),
        })
      )
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end()
  })
}

/** The body decoded according to its Content-Encoding; throws on an encoding other than br or gzip. */
export function decoded(response: WireResponse): Buffer {
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(response.wire)
  if (encoding === 'gzip') return gunzipSync(response.wire)
  if (encoding === undefined) return response.wire
  throw new Error(`unexpected Content-Encoding ${encoding}`)
}
