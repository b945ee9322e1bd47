/**
 * Theme of the pages: antd's light or dark algorithm with the blue primary
 * colour, no motion when the visitor prefers reduced motion, notifications
 * bottom-right (4000 ms, at most 5).
 *
 * The preference (light, dark or system) comes from the `color_scheme` cookie
 * (shared prop `colorScheme`) so the server renders the right theme. For
 * `system` the server renders light and the browser switches to dark after
 * hydration when the OS asks for it (no hydration mismatch: the first client
 * render equals the server's).
 *
 * `useColorScheme()` reads and changes the preference (stored in localStorage
 * and the cookie).
 */
import { App as AntApp, ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd'
import { IconProvider } from '@ant-design/icons'
import { cspNonce } from '~/lib/csp_nonce'
import type { AntdLocale } from '~/lib/antd_locale'
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react'
import { saveColorScheme, storedColorScheme } from '~/lib/preferences'
import type { ColorScheme } from '~/types/page_props'

/** Primary colour of the product (antd blue). */
export const PRIMARY_COLOR = '#1677ff'

/** Notification placement and limits: bottom right, 4 s, at most 5 at once. */
export const NOTIFICATION_CONFIG = { placement: 'bottomRight', duration: 4, maxCount: 5 } as const

interface ColorSchemeContextValue {
  /** The preference: light, dark or system. */
  scheme: ColorScheme
  /** What is shown: light or dark. */
  resolved: 'light' | 'dark'
  /** Changes and stores the preference. */
  setScheme(scheme: ColorScheme): void
}

const ColorSchemeContext = createContext<ColorSchemeContextValue | null>(null)

function useMediaQuery(query: string) {
  const [matches, setMatches] = useState(false)
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const list = window.matchMedia(query)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the server cannot know the media query: read after hydration
    setMatches(list.matches)
    const listener = (event: MediaQueryListEvent) => setMatches(event.matches)
    list.addEventListener('change', listener)
    return () => list.removeEventListener('change', listener)
  }, [query])
  return matches
}

/**
 * antd theme configuration for a resolved scheme.
 */
export function themeConfig(resolved: 'light' | 'dark', reducedMotion: boolean): ThemeConfig {
  const dark = resolved === 'dark'
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: PRIMARY_COLOR, motion: !reducedMotion },
    components: {
      Layout: {
        headerBg: dark ? '#141414' : '#ffffff',
        headerHeight: 60,
        headerPadding: '0 16px',
        bodyBg: dark ? '#000000' : '#f5f5f5',
      },
    },
  }
}

/** antd's CSS-in-JS puts the page's CSP nonce on the <style> elements it adds. */
const CSP = { nonce: cspNonce() }
const ICON_CONTEXT = { csp: CSP }

/**
 * Provides the colour scheme, antd's ConfigProvider and its App (for
 * `App.useApp()` notifications, messages and modals).
 */
export function ThemeProvider(props: {
  initialScheme: ColorScheme
  antdLocale?: AntdLocale
  direction?: 'ltr' | 'rtl'
  /** The interface language: Japanese keeps two-kanji button labels unspaced (antd spaces them, as Chinese does). */
  language?: string
  children: ReactNode
}) {
  const [scheme, setSchemeState] = useState<ColorScheme>(props.initialScheme)
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)')
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)')
  const resolved: 'light' | 'dark' = scheme === 'system' ? (systemDark ? 'dark' : 'light') : scheme

  const setScheme = useCallback((next: ColorScheme) => {
    saveColorScheme(next)
    setSchemeState(next)
  }, [])

  useEffect(() => {
    const stored = storedColorScheme()
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the stored scheme is read after hydration
    if (stored && stored !== props.initialScheme) setScheme(stored)
    else if (!stored) saveColorScheme(props.initialScheme)
  }, [props.initialScheme, setScheme])

  useEffect(() => {
    const root = document.documentElement
    root.dataset.colorScheme = scheme
    root.dataset.theme = resolved
    root.style.colorScheme = resolved
  }, [scheme, resolved])

  const value = useMemo(() => ({ scheme, resolved, setScheme }), [scheme, resolved, setScheme])
  const config = useMemo(() => themeConfig(resolved, reducedMotion), [resolved, reducedMotion])

  return (
    <ColorSchemeContext.Provider value={value}>
      <ConfigProvider
        theme={config}
        locale={props.antdLocale}
        direction={props.direction}
        csp={CSP}
        button={{ autoInsertSpace: !props.language?.startsWith('ja') }}
      >
        {/* antd bundles its own copy of the icons: ours learn the nonce here. */}
        <IconProvider value={ICON_CONTEXT}>
          <AntApp notification={NOTIFICATION_CONFIG} message={{ maxCount: 5 }}>
            {props.children}
          </AntApp>
        </IconProvider>
      </ConfigProvider>
    </ColorSchemeContext.Provider>
  )
}

/** The colour scheme preference, what is shown, and a setter. */
export function useColorScheme(): ColorSchemeContextValue {
  const value = useContext(ColorSchemeContext)
  if (!value) throw new Error('useColorScheme must be used inside <ThemeProvider>')
  return value
}
