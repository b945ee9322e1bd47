/**
 * Browser entry: loads the page's catalogue and antd locale, then hydrates
 * the server-rendered page (same providers and data as inertia/ssr.tsx, so
 * the first client render matches the server's HTML).
 */
import { hydrateRoot, createRoot } from 'react-dom/client'
import { createInertiaApp } from '@inertiajs/react'
import { AppProviders, defaultLayout, loadBootData, pageTitle, resolvePage } from '~/lib/boot'
import { PRIMARY_COLOR } from '~/lib/theme'
import { installAntdReact19Render } from '~/lib/antd_react19'
import { cspNonce, nonceScriptStyles } from '~/lib/csp_nonce'

installAntdReact19Render()
nonceScriptStyles()

const boot = await loadBootData(document.documentElement.lang || 'en-US')

await createInertiaApp({
  title: pageTitle,
  resolve: resolvePage,
  layout: defaultLayout,
  setup({ el, App, props }) {
    const app = (
      <AppProviders boot={boot} colorScheme={props.initialPage.props.colorScheme}>
        <App {...props} />
      </AppProviders>
    )
    if (el.hasAttribute('data-server-rendered')) hydrateRoot(el, app)
    else createRoot(el).render(app)
  },
  progress: { color: PRIMARY_COLOR },
  // The progress bar's <style> carries the page's CSP nonce.
  defaults: { nonce: cspNonce() },
})
