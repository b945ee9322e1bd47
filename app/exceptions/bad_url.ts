import type { IncomingMessage, ServerResponse } from 'node:http'

/** The message of a URL whose percent-encoding is not UTF-8 (`%FF`, `%C0%AF`, `%ED%A0%80`). */
export const BAD_URL_MESSAGE =
  'The request URL is not valid: its percent-encoded characters are not UTF-8'

/**
 * Answers a request whose URL cannot be decoded, before any route or
 * middleware runs (the http server's `onBadUrl`): 400, JSON of the API's
 * error shape under /api, plain text elsewhere (as the framework did).
 */
export function answerBadUrl(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? ''
  if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) {
    res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify({ statusCode: 400, message: BAD_URL_MESSAGE, error: 'Bad Request' }))
    return
  }
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
  res.end('Bad Request')
}
