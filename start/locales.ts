/**
 * Every interface language of the product spec, with its locale code and its
 * name in that language. Shared by the server (i18n, language detection) and
 * the pages (language picker). Plain data: no imports, safe for the browser.
 */
export interface LocaleInfo {
  code: string
  name: string
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
  { code: 'ar-EG', name: 'العربية' },
  { code: 'hu-HU', name: 'Magyar' },
]

export const DEFAULT_LOCALE = 'en-US'

/**
 * Picks the locale for a request: the `language` cookie when it names a known
 * locale, else the browser's first language matched on the part before the
 * hyphen, else English.
 */
export function resolveLocale(cookie: string | undefined, acceptLanguage: string | undefined) {
  if (cookie) {
    const exact = LOCALES.find((l) => l.code.toLowerCase() === cookie.toLowerCase())
    if (exact) return exact.code
    const byLanguage = LOCALES.find((l) => l.code.split('-')[0] === cookie.split('-')[0].toLowerCase())
    if (byLanguage) return byLanguage.code
  }
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim()
  if (first) {
    const language = first.split('-')[0].toLowerCase()
    const match = LOCALES.find((l) => l.code.split('-')[0] === language)
    if (match) return match.code
  }
  return DEFAULT_LOCALE
}
