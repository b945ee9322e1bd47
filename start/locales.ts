/**
 * Every interface language of Tern, with its locale code and its
 * name in that language. Shared by the server (i18n, language detection) and
 * the pages (language picker). Plain data: no imports, safe for the browser.
 */
export interface LocaleInfo {
  /** BCP 47 code, also the folder name under resources/lang. */
  code: string
  /** Name of the language in that language. */
  name: string
  /** Written right to left. */
  rtl?: boolean
}

export const LOCALES: readonly LocaleInfo[] = [
  { code: 'en-US', name: 'English' },
  { code: 'de-DE', name: 'Deutsch' },
  { code: 'fr-FR', name: 'Français' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'da-DK', name: 'Dansk' },
  { code: 'es-ES', name: 'Español' },
  { code: 'zh-CN', name: '简体中文' },
  { code: 'zh-TW', name: '繁體中文' },
  { code: 'fi-FI', name: 'Suomi' },
  { code: 'ru-RU', name: 'Русский' },
  { code: 'uk-UA', name: 'Українська' },
  { code: 'th-TH', name: 'ไทย' },
  { code: 'sr-SP', name: 'Српски' },
  { code: 'nl-BE', name: 'Nederlands' },
  { code: 'ja-JP', name: '日本語' },
  { code: 'pl-PL', name: 'Polski' },
  { code: 'sv-SE', name: 'Svenska' },
  { code: 'it-IT', name: 'Italiano' },
  { code: 'el-GR', name: 'Ελληνικά' },
  { code: 'sl-SI', name: 'Slovenščina' },
  { code: 'ar-EG', name: 'العربية', rtl: true },
  { code: 'hu-HU', name: 'Magyar' },
]

export const DEFAULT_LOCALE = 'en-US'

/** The entry of a locale code (English for an unknown code). */
export function localeInfo(code: string): LocaleInfo {
  return LOCALES.find((locale) => locale.code === code) ?? LOCALES[0]
}

/**
 * The known locale for a language tag: the exact code first (`zh-TW`), else
 * the first locale of the same language, the part before the hyphen (`de`,
 * `de-AT` give `de-DE`). Undefined when none matches.
 */
export function matchLocale(tag: string): string | undefined {
  const wanted = tag.trim().toLowerCase()
  if (!wanted) return undefined
  const exact = LOCALES.find((locale) => locale.code.toLowerCase() === wanted)
  if (exact) return exact.code
  const language = wanted.split('-')[0]
  return LOCALES.find((locale) => locale.code.split('-')[0].toLowerCase() === language)?.code
}

/**
 * The language tags of an Accept-Language header, most preferred first
 * (by q-value, then by order).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const quality = q ? Number(q.slice(2)) : 1
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index }
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag)
}

/**
 * Picks the locale for a request: the `language` cookie when it names a known
 * locale, else the browser's preferred languages (Accept-Language) matched on
 * the part before the hyphen, else English.
 */
export function resolveLocale(
  cookie: string | undefined,
  acceptLanguage: string | undefined
): string {
  const fromCookie = cookie ? matchLocale(cookie) : undefined
  if (fromCookie) return fromCookie
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const match = matchLocale(tag)
    if (match) return match
  }
  return DEFAULT_LOCALE
}
