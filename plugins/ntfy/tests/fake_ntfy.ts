/**
 * A local HTTP server on 127.0.0.1 that answers publications like ntfy
 * does (https://docs.ntfy.sh/publish/): `POST /<topic>` with the message as
 * body and `Title`, `Tags`, `Priority`, `Click` headers; 200 with the
 * message as JSON; `{"code":40101,"http":401,"error":"unauthorized"}` when a
 * token is required and missing or wrong. It records every request, decodes
 * RFC 2047 titles as ntfy does, and answers as scripted (`reply(429, 500)`).
 */
import { once } from 'node:events'
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Arrivals } from '#tests/helpers/arrivals'

/** One publication the server got. */
export interface Publication {
  method: string
  topic: string
  headers: IncomingHttpHeaders
  /** The `Title` header decoded (RFC 2047 `=?UTF-8?B?...?=` like ntfy). */
  title: string | undefined
  tags: string[]
  priority: number | undefined
  click: string | undefined
  message: string
  status: number
}

/** A scripted answer: a status, or one that never comes (`'hang'`). */
export type NtfyReply = number | 'hang' | { status: number; headers?: Record<string, string> }

/** A running fake. */
export interface FakeNtfy {
  readonly url: string
  readonly received: Publication[]
  /** Scripts the answers of the next requests. */
  reply(...replies: NtfyReply[]): void
  /** Require `Authorization: Bearer <token>` (null: anonymous publishing allowed). */
  requireToken(token: string | null): void
  waitFor(count: number, timeoutMs?: number): Promise<Publication[]>
  close(): Promise<void>
}

/** Decodes `=?UTF-8?B?...?=` (and `?Q?`) encoded words; other values unchanged. */
export function decodeRfc2047(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9a-f]{2})/gi, (_m, hex) =>
              String.fromCharCode(Number.parseInt(hex, 16))
            ),
          'latin1'
        ).toString('utf8')
  )
}

function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(`${JSON.stringify(body)}\n`)
}

/** Starts the fake (see the module comment). */
export async function startFakeNtfy(): Promise<FakeNtfy> {
  const arrivals = new Arrivals<Publication>('fake ntfy', 'publication(s)')
  const received = arrivals.list
  const script: NtfyReply[] = []
  const held = new Set<ServerResponse>()
  let token: string | null = null

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const message = Buffer.concat(chunks).toString('utf8')
    const topic = decodeURIComponent((request.url ?? '/').split('?')[0].slice(1))
    const header = (name: string) => {
      const value = request.headers[name]
      return Array.isArray(value) ? value[0] : value
    }
    const scripted = script.shift() ?? 200
    let status = typeof scripted === 'object' ? scripted.status : scripted === 'hang' ? 0 : scripted
    if (status === 200 && token !== null && header('authorization') !== `Bearer ${token}`) {
      status = header('authorization') ? 403 : 401
    }
    if (status === 200 && request.method !== 'POST' && request.method !== 'PUT') status = 405
    const publication: Publication = {
      method: request.method ?? '',
      topic,
      headers: request.headers,
      title: decodeRfc2047(header('title')),
      tags: (header('tags') ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      priority: header('priority') ? Number(header('priority')) : undefined,
      click: header('click'),
      message,
      status,
    }
    arrivals.push(publication)

    if (scripted === 'hang') {
      held.add(response)
      response.on('close', () => held.delete(response))
      return
    }
    const extra = typeof scripted === 'object' ? scripted.headers : undefined
    if (status === 200) {
      json(response, 200, {
        id: randomBytes(6).toString('base64url'),
        time: Math.floor(Date.now() / 1000),
        event: 'message',
        topic,
        title: publication.title,
        message,
        priority: publication.priority,
        tags: publication.tags,
        click: publication.click,
      })
      return
    }
    const errors: Record<number, string> = {
      401: 'unauthorized',
      403: 'forbidden',
      405: 'method not allowed',
      429: 'limit reached: too many requests',
    }
    json(
      response,
      status,
      { code: status * 100 + 1, http: status, error: errors[status] ?? 'internal server error' },
      extra
    )
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    reply: (...replies) => void script.push(...replies),
    requireToken: (value) => void (token = value),
    waitFor: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    async close() {
      for (const response of held) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
