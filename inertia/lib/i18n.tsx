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
import { DEFAULT_LOCALE, LOCALES } from '../../start/locales'

/** A flat catalogue: dotted key to ICU message. */
export type Messages = Record<string, string>

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

const catalogueFiles = import.meta.glob<Json>('../../resources/lang/*/**/*.json', { import: 'default' })

const loaded = new Map<string, Promise<Messages>>()

function flatten(prefix: string, value: Json, into: Messages) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, nested] of Object.entries(value)) {
      flatten(prefix ? `${prefix}.${key}` : key, nested, into)
    }
    return
  }
  if (typeof value === 'string') into[prefix] = value
}

async function loadLocaleOnly(locale: string): Promise<Messages> {
  const base = `../../resources/lang/${locale}/`
  const messages: Messages = {}
  const files = Object.keys(catalogueFiles).filter((file) => file.startsWith(base))
  const contents = await Promise.all(files.map((file) => catalogueFiles[file]()))
  files.forEach((file, index) => {
    const namespace = file.slice(base.length).replace(/\.json$/, '').split('/').join('.')
    flatten(namespace, contents[index], messages)
  })
  return messages
}

/**
 * The catalogue of `locale` merged over the English one (English fills every
 * missing message). Cached per locale.
 */
export function loadMessages(locale: string): Promise<Messages> {
  const code = LOCALES.some((l) => l.code === locale) ? locale : DEFAULT_LOCALE
  let pending = loaded.get(code)
  if (!pending) {
    pending = Promise.all([
      loadLocaleOnly(DEFAULT_LOCALE),
      code === DEFAULT_LOCALE ? Promise.resolve({}) : loadLocaleOnly(code),
    ]).then(([english, own]) => ({ ...english, ...own }))
    loaded.set(code, pending)
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
