/**
 * Reading server-rendered pages in functional tests: the HTML text with
 * React's entity escapes decoded, the Inertia page object it embeds, and a
 * GET as a browser would send it.
 */
import type { ApiClient } from '@japa/api-client'
import { api } from '#tests/helpers/shares'

/** The HTML text with React's entity escapes decoded. */
export function html(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
}

/** The Inertia page object embedded in a server-rendered page. */
export function pageObject(text: string): { component: string; props: Record<string, any> } {
  const match = /<script data-page="app" type="application\/json">([\s\S]*?)<\/script>/.exec(text)
  if (match) return JSON.parse(match[1])
  const attribute = /data-page="([^"]*)"/.exec(text)
  if (!attribute) throw new Error('No Inertia page object in the HTML')
  return JSON.parse(html(attribute[1]))
}

/**
 * The CSS of the stylesheets a server-rendered page links to (antd's styles
 * of that render, `/ssr-styles/<hash>.css`), fetched as a browser would.
 */
export async function linkedStyles(text: string): Promise<string> {
  const hrefs = [...text.matchAll(/<link rel="stylesheet" href="(\/ssr-styles\/[^"]+)"/g)].map(
    (m) => m[1]
  )
  if (hrefs.length === 0) throw new Error('No server-rendered stylesheet link in the HTML')
  const sheets = await Promise.all(
    hrefs.map((href) => api('GET', href, { headers: { accept: 'text/css,*/*;q=0.1' } }))
  )
  return sheets.map((sheet) => sheet.bytes.toString('utf8')).join('\n')
}

/** GET `path` as a browser would (no redirects followed): status, Location, cookies set, decoded and raw HTML. */
export async function page(path: string, cookie: string | null = null) {
  const response = await api('GET', path, { cookie, headers: { accept: 'text/html' } })
  const raw = response.bytes.toString('utf8')
  return {
    status: response.status,
    location: response.headers.get('location'),
    setCookies: response.setCookies,
    text: html(raw),
    raw,
  }
}

/** An Inertia visit (X-Inertia, with the current asset version) to `url` through Japa's client: the page object as JSON. */
export async function inertiaVisit(client: ApiClient, url: string, cookie = '') {
  const first = await client.get('/')
  const version = /"version":"([^"]*)"/.exec(first.text())?.[1] ?? ''
  const request = client.get(url).header('X-Inertia', 'true').header('X-Inertia-Version', version)
  if (cookie) request.header('Cookie', cookie)
  const response = await request
  response.assertHeader('x-inertia', 'true')
  return response.body()
}
