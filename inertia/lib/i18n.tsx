/**
 * Translations for the pages.
 *
 * The catalogues are the server's: `resources/lang/<locale>/<namespace>.json`,
 * flattened to dotted keys prefixed by the file name, exactly as AdonisJS i18n
 * loads them (`resources/lang/en-US/home.json` `{"hero": {"title": "..."}}`
 * is the key `home.hero.title`). The page's locale comes from the `language`
 * shared prop; its catalogue, merged over English, is loaded before the app
 * renders (on the server and before hydration) so both render the same text.
 *
 * In a component: `const t = useTranslate()` then `t('home.hero.title')` or
 * `t('shell.userMenu', { username })`.
 */
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react'
import { formatMessage, type MessageValues } from '~/lib/format_message'
import catalogues from 'virtual:tern-catalogues'
import { DEFAULT_LOCALE, LOCALES } from '../../start/locales'

/** A flat catalogue: dotted key to ICU message. */
export type Messages = Record<string, string>

/** Which catalogue: the pages' (`app`) or the admin panel's (`admin`). */
export type CataloguePart = 'app' | 'admin'

const loaded = new Map<string, Promise<Messages>>()

/**
 * The catalogue `part` of `locale`, merged over the English one at build
 * time (English fills every missing message): one module per locale and
 * part (the `tern-catalogues` plugin of vite.config.ts), so a page loads its
 * own language only. Cached per locale and part.
 */
export function loadMessages(locale: string, part: CataloguePart = 'app'): Promise<Messages> {
  const code = LOCALES.some((l) => l.code === locale) && catalogues[locale] ? locale : DEFAULT_LOCALE
  const key = `${code}/${part}`
  let pending = loaded.get(key)
  if (!pending) {
    pending = catalogues[code][part]().then((module) => module.default)
    loaded.set(key, pending)
  }
  return pending
}

/** Translates a key with optional ICU values. */
export type TranslateFn = (key: string, values?: MessageValues) => string

interface I18nContextValue {
  locale: string
  messages: Messages
  t: TranslateFn
}

const I18nContext = createContext<I18nContextValue | null>(null)

/**
 * Makes the locale and its catalogue available to `useTranslate`/`useI18n`.
 */
export function I18nProvider(props: { locale: string; messages: Messages; children: ReactNode }) {
  const { locale, messages } = props
  const t = useCallback<TranslateFn>(
    (key, values) => {
      const message = messages[key]
      if (message === undefined) {
        if (import.meta.env.DEV) console.warn(`[i18n] missing message "${key}"`)
        return key
      }
      return formatMessage(message, values, locale)
    },
    [locale, messages]
  )
  const value = useMemo(() => ({ locale, messages, t }), [locale, messages, t])
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

/** The current locale and translate function. */
export function useI18n(): I18nContextValue {
  const value = useContext(I18nContext)
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>')
  return value
}

/** The translate function of the current locale: `t(key, values)`. */
export function useTranslate(): TranslateFn {
  return useI18n().t
}
