/**
 * Server entry: renders a page to HTML with its antd styles. Returns
 * `{head, body}` for @adonisjs/inertia; the head carries the page's <Head>
 * tags and the CSS antd generated while rendering, so the server HTML is
 * styled before any script runs (its <style> tags carry the CSP nonce).
 */
import ReactDOMServer from 'react-dom/server'
import { createInertiaApp } from '@inertiajs/react'
import type { Page } from '@inertiajs/core'
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs'
import { AppProviders, defaultLayout, loadBootData, pageTitle, resolvePage } from '~/lib/boot'
import { cspNonce, withStyleNonce } from '~/lib/csp_nonce'
import type { SharedPageProps } from '~/types/page_props'

export default async function render(page: Page<SharedPageProps>) {
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
  return { head: [...head, withStyleNonce(extractStyle(cache), cspNonce())], body }
}
