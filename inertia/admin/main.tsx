/**
 * Browser entry of the administration panel (Vite entry, loaded by
 * resources/views/admin.edge). Client-rendered: reads the shell's boot data,
 * loads the catalogue (the pages' `resources/lang`, merged over English)
 * and antd's locale, keeps the session fresh like the pages do, and mounts
 * the Refine SPA with the pages' theme and translations.
 */
import { createRoot } from 'react-dom/client'
import { useEffect } from 'react'
import { I18nProvider, loadMessages } from '~/lib/i18n'
import { ThemeProvider } from '~/lib/theme'
import { loadAntdLocale } from '~/lib/antd_locale'
import { installAntdReact19Render } from '~/lib/antd_react19'
import { nonceScriptStyles } from '~/lib/csp_nonce'
import { startSessionRefresh } from '~/lib/session'
import { localeInfo } from '../../start/locales'
import { readBootData } from '~/admin/boot'
import { AdminApp } from '~/admin/app'

installAntdReact19Render()
nonceScriptStyles()

const boot = readBootData()
// The panel reads the pages' messages and its own (admin.*), one module each.
const [app, admin, antdLocale] = await Promise.all([
  loadMessages(boot.language),
  loadMessages(boot.language, 'admin'),
  loadAntdLocale(boot.language),
])
const messages = { ...app, ...admin }
startSessionRefresh()

/** Marks the panel as started (the browser tests wait for it). */
function Started() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return null
}

createRoot(document.getElementById('admin-root')!).render(
  <I18nProvider locale={boot.language} messages={messages}>
    <ThemeProvider
      initialScheme={boot.colorScheme}
      antdLocale={antdLocale}
      direction={localeInfo(boot.language).rtl ? 'rtl' : 'ltr'}
      language={boot.language}
    >
      <Started />
      <AdminApp appName={boot.appName} appUrl={boot.appUrl} />
    </ThemeProvider>
  </I18nProvider>
)
