/**
 * What the browser entry (app.tsx) and the server entry (ssr.tsx) share: page
 * resolution, the default layout, the title, the data loaded before the first
 * render (catalogue, antd locale) and the providers around every page.
 */
import { useEffect, type ReactNode } from 'react'
import type { Page } from '@inertiajs/core'
import type { ResolvedComponent } from '@inertiajs/react'
import { I18nProvider, loadMessages, type Messages } from '~/lib/i18n'
import { ThemeProvider } from '~/lib/theme'
import { loadAntdLocale, type AntdLocale } from '~/lib/antd_locale'
import { configReader } from '~/lib/config'
import AppLayout from '~/layouts/app_layout'
import { localeInfo } from '../../start/locales'
import type { SharedPageProps } from '~/types/page_props'

const pages = import.meta.glob<{ default: ResolvedComponent }>('../pages/**/*.tsx')

/** Loads the page component `name` (`pages/<name>.tsx`). */
export async function resolvePage(name: string): Promise<ResolvedComponent> {
  const load = pages[`../pages/${name}.tsx`]
  if (!load) throw new Error(`Unknown page "${name}"`)
  const page = await load()
  return page.default
}

/**
 * The layout of a page: the app shell for every page except the admin
 * panel's, which brings its own.
 */
export function defaultLayout(name: string) {
  return name === 'admin' || name.startsWith('admin/') ? undefined : AppLayout
}

/** Document title: "<page title> - <app name>", or the app name alone. */
export function pageTitle(title: string, page: Page) {
  const props = page.props as unknown as Partial<SharedPageProps>
  const appName =
    configReader(props.configVariables ?? []).string('general.appName', 'Tern') || 'Tern'
  return title ? `${title} - ${appName}` : appName
}

/** Data the first render needs, loaded before it on both sides. */
export interface BootData {
  language: string
  messages: Messages
  antdLocale: AntdLocale
}

/** Loads the catalogue and antd's locale for `language`. */
export async function loadBootData(language: string): Promise<BootData> {
  const [messages, antdLocale] = await Promise.all([
    loadMessages(language),
    loadAntdLocale(language),
  ])
  return { language, messages, antdLocale }
}

/**
 * Providers around the whole Inertia app: translations, theme (antd
 * ConfigProvider and App).
 */
export function AppProviders(props: {
  boot: BootData
  colorScheme: SharedPageProps['colorScheme']
  children: ReactNode
}) {
  const { boot } = props
  useEffect(() => {
    // Marks the end of hydration (used by the browser tests).
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <I18nProvider locale={boot.language} messages={boot.messages}>
      <ThemeProvider
        initialScheme={props.colorScheme}
        antdLocale={boot.antdLocale}
        direction={localeInfo(boot.language).rtl ? 'rtl' : 'ltr'}
        language={boot.language}
      >
        {props.children}
      </ThemeProvider>
    </I18nProvider>
  )
}
