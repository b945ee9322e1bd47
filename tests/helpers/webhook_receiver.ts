/**
 * A real HTTP server on loopback that receives webhooks in tests
 * (`node:http`, 127.0.0.1, a free port), records every request with its raw
 * body, and answers as scripted.
 *
 * ```ts
 * import { startWebhookReceiver } from '#tests/helpers/webhook_receiver'
 *
 * const receiver = await startWebhookReceiver()
 * receiver.reply(500, 500)              // the next two requests get 500, later ones the default (200)
 * // ... configure webhook.urls = receiver.url, trigger an event ...
 * const [first] = await receiver.waitFor(1)
 * first.headers['x-tern-event']         // 'share.created'
 * first.json.data.shareId
 * await receiver.close()
 * ```
 *
 * A reply is a status code, `'hang'` (read the request and never answer
 * until `close()`), or `{ status, headers, delayMs }`.
 */
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Arrivals } from '#tests/helpers/arrivals'

/** One request the receiver got. */
export interface ReceivedWebhook {
  method: string
  /** Path and query. */
  path: string
  /** Lower-cased header names, as Node parses them. */
  headers: IncomingHttpHeaders
  /** The raw body (what the signature covers). */
  body: string
  /** The body parsed as JSON (null when it is not JSON). */
  json: any
  /** `Date.now()` when the body was read. */
  receivedAt: number
  /** The reply it got. */
  reply: ReceiverReply
}

/** How to answer one request. */
export type ReceiverReply =
  | number
  | 'hang'
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }

/** Options of `startWebhookReceiver`. */
export interface WebhookReceiverOptions {
  /** The reply once the scripted ones are used up (default 200). */
  defaultReply?: ReceiverReply
  /** The path of `url` (default `/hook`); requests to any path are recorded. */
  path?: string
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>`. */
  readonly url: string
  readonly port: number
  /** Every request so far, in arrival order. */
  readonly received: ReceivedWebhook[]
  /** Requests held open by `'hang'` replies right now. */
  readonly hanging: number
  /** Scripts the replies of the next requests, in order. */
  reply(...replies: ReceiverReply[]): void
  /** Resolves with the first `count` requests once they arrived; rejects after `timeoutMs` (default 5000). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>
  /** Forgets the recorded requests and scripted replies. */
  clear(): void
  /** Drops held requests and stops listening. */
  close(): Promise<void>
}

/** Starts a receiver (see the module comment). */
export async function startWebhookReceiver(
  options: WebhookReceiverOptions = {}
): Promise<WebhookReceiver> {
  const arrivals = new Arrivals<ReceivedWebhook>('webhook receiver', 'request(s)')
  const received = arrivals.list
  const script: ReceiverReply[] = []
  const held = new Set<ServerResponse>()
  const defaultReply = options.defaultReply ?? 200

  const answer = (response: ServerResponse, reply: ReceiverReply) => {
    if (reply === 'hang') {
      held.add(response)
      response.on('close', () => held.delete(response))
      return
    }
    const spec = typeof reply === 'number' ? { status: reply } : reply
    const send = () => {
      if (response.destroyed) return
      response.writeHead(spec.status, { 'content-type': 'text/plain', ...spec.headers })
      response.end(spec.body ?? (spec.status < 300 ? 'ok' : `status ${spec.status}`))
    }
    if (spec.delayMs) setTimeout(send, spec.delayMs)
    else send()
  }

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    let json: any = null
    try {
      json = JSON.parse(body)
    } catch {}
    const reply = script.shift() ?? defaultReply
    arrivals.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
      json,
      receivedAt: Date.now(),
      reply,
    })
    answer(response, reply)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hook'}`,
    port,
    received,
    get hanging() {
      return held.size
    },
    reply(...replies) {
      script.push(...replies)
    },
    waitFor: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    clear() {
      received.length = 0
      script.length = 0
    },
    async close() {
      for (const response of held) response.destroy()
      held.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
