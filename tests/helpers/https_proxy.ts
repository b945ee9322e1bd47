/**
 * A TLS-terminating reverse proxy in front of the test server, as nginx or
 * Caddy would be (docs/operations.md, "Reverse proxy"): it answers HTTPS on a
 * free loopback port with the test certificate of tests/fixtures/tls and
 * forwards every request to the test server with `X-Forwarded-Proto: https`
 * and the client's address in `X-Forwarded-For`. The test server trusts
 * loopback (the default TRUST_PROXY), so it sees HTTPS requests.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'

const TLS = new URL('../fixtures/tls/', import.meta.url)

export interface HttpsProxy {
  /** `https://127.0.0.1:<port>`. */
  url: string
  close(): Promise<void>
}

/** Starts the proxy in front of `target` (an `http://host:port` origin). */
export async function startHttpsProxy(target: string): Promise<HttpsProxy> {
  const upstream = new URL(target)
  const server = https.createServer(
    { key: readFileSync(new URL('key.pem', TLS)), cert: readFileSync(new URL('cert.pem', TLS)) },
    (request, response) => {
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: {
            ...request.headers,
            'x-forwarded-proto': 'https',
            'x-forwarded-for': request.socket.remoteAddress ?? '127.0.0.1',
          },
        },
        (answer) => {
          // Raw headers keep every Set-Cookie line as the server wrote it.
          response.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
          answer.pipe(response)
        }
      )
      forwarded.on('error', () => response.destroy())
      request.pipe(forwarded)
    }
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
