/**
 * Server entry: renders a page to HTML with its antd styles. Returns
 * `{head, body}` for @adonisjs/inertia; the head carries the page's <Head>
 * tags and a link to the CSS antd generated while rendering (a stylesheet
 * named by its hash, #services/pages/ssr_styles), so the server HTML is
 * styled before any script runs.
 *
 * Renders are memoised: the output depends only on the Inertia
 * page object (component, props — which carry the language, the colour
 * scheme, the user, the settings and the share's state —, url, version) and
 * on this process's CSP nonce placeholder, which the middleware swaps for
 * each request's nonce, and on the clock to the minute (dates shown). The key
 * is the SHA-256 of the current minute and the whole page object, so any
 * change of share state or settings is another key; entries also expire
 * after a minute and the cache is bounded (lru-cache). Concurrent requests
 * for the same page share one render.
 */
import { createHash } from 'node:crypto'
import ReactDOMServer from 'react-dom/server'
import { createInertiaApp } from '@inertiajs/react'
import type { Page } from '@inertiajs/core'
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs'
import { LRUCache } from 'lru-cache'
import { AppProviders, defaultLayout, loadBootData, pageTitle, resolvePage } from '~/lib/boot'
import { cspNonce, withStyleNonce } from '~/lib/csp_nonce'
import type { SharedPageProps } from '~/types/page_props'

type Rendered = { head: string[]; body: string }

/** The stylesheet store of the server (app/services/pages/ssr_styles.ts), when it is loaded. */
type StylesStore = { put(css: string): Promise<string> }

const renders = new LRUCache<string, Promise<Rendered>>({ max: 500, ttl: 60_000 })

export default function render(page: Page<SharedPageProps>): Promise<Rendered> {
  // The minute is part of the key: pages that show a date from the clock (the upload form's
  // "expires on", to the minute) render as a fresh render would.
  const minute = Math.floor(Date.now() / 60_000)
  const key = createHash('sha256')
    .update(`${minute}\n${JSON.stringify(page)}`)
    .digest('base64')
  let rendered = renders.get(key)
  if (!rendered) {
    rendered = renderPage(page)
    renders.set(key, rendered)
    // A failed render is not remembered: the next request tries again.
    rendered.catch(() => renders.delete(key))
  }
  return rendered
}

async function renderPage(page: Page<SharedPageProps>): Promise<Rendered> {
  const boot = await loadBootData(page.props.language)
  const cache = createCache()
  const { head, body } = await createInertiaApp({
    page,
    render: ReactDOMServer.renderToString,
    title: pageTitle,
    resolve: resolvePage,
    layout: defaultLayout,
    setup: ({ App, props }) => (
      <StyleProvider cache={cache}>
        <AppProviders boot={boot} colorScheme={page.props.colorScheme}>
          <App {...props} />
        </AppProviders>
      </StyleProvider>
    ),
  })
  // The placeholder nonce becomes the request's nonce in SecurityHeadersMiddleware.
  const nonce = cspNonce()
  const store = (globalThis as Record<symbol, unknown>)[Symbol.for('tern.ssrStyles')] as
    StylesStore | undefined
  if (!store) return { head: [...head, withStyleNonce(extractStyle(cache), nonce)], body }
  const href = await store.put(extractStyle(cache, { plain: true }))
  return {
    head: [...head, `<link rel="stylesheet" href="${href}"${nonce ? ` nonce="${nonce}"` : ''} />`],
    body,
  }
}
