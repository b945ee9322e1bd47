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
  const code =
    LOCALES.some((l) => l.code === locale) && catalogues[locale] ? locale : DEFAULT_LOCALE
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
 * In a right-to-left language, the text values put in a message as they are
 * (`{name}`, not a select or a number) are isolated from the sentence (first
 * strong isolate … pop directional isolate, the plain-text <bdi>): a file
 * name, user name or share id in Latin letters keeps its order and
 * punctuation inside Arabic text.
 */
function isolated(message: string, values: MessageValues): MessageValues {
  const result: MessageValues = {}
  for (const [name, value] of Object.entries(values)) {
    const formatted = new RegExp(`\\{\\s*${name}\\s*,`).test(message)
    result[name] =
      typeof value === 'string' && value !== '' && !formatted ? `\u2068${value}\u2069` : value
  }
  return result
}

/**
 * Makes the locale and its catalogue available to `useTranslate`/`useI18n`.
 */
export function I18nProvider(props: { locale: string; messages: Messages; children: ReactNode }) {
  const { locale, messages } = props
  const rtl = LOCALES.some((entry) => entry.code === locale && entry.rtl)
  const t = useCallback<TranslateFn>(
    (key, values) => {
      const message = messages[key]
      if (message === undefined) {
        if (import.meta.env.DEV) console.warn(`[i18n] missing message "${key}"`)
        return key
      }
      return formatMessage(message, rtl && values ? isolated(message, values) : values, locale)
    },
    [locale, messages, rtl]
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
