/**
 * The visitor's preferences kept in the browser: the colour scheme and the
 * language. Each lives in localStorage and in a cookie the server reads to
 * render the right page (`color_scheme`, `language`): one year, SameSite
 * Lax, path /, Secure when the page was served over HTTPS (as the server's
 * own cookies).
 */
import type { ColorScheme } from '~/types/page_props'

/** localStorage key of the colour scheme preference. */
export const COLOR_SCHEME_STORAGE_KEY = 'colorScheme'
/** localStorage key of the language preference. */
export const LOCALE_STORAGE_KEY = 'locale'
/** Cookie read by the server for the colour scheme. */
export const COLOR_SCHEME_COOKIE = 'color_scheme'
/** Cookie read by the server for the language. */
export const LANGUAGE_COOKIE = 'language'

const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365

/** `; Secure` on a page served over HTTPS, else nothing (a browser refuses Secure cookies over HTTP). */
function secureAttribute(): string {
  return window.location.protocol === 'https:' ? '; Secure' : ''
}

/** Writes a preference cookie (1 year, SameSite Lax, path /). */
export function writeCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${ONE_YEAR_SECONDS}; Path=/; SameSite=Lax${secureAttribute()}`
}

/** Removes a preference cookie. */
export function removeCookie(name: string) {
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax${secureAttribute()}`
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** Whether a value is one of the three colour schemes. */
export function isColorScheme(value: unknown): value is ColorScheme {
  return value === 'light' || value === 'dark' || value === 'system'
}

/** The colour scheme stored in the browser, if any. */
export function storedColorScheme(): ColorScheme | null {
  const value = storage()?.getItem(COLOR_SCHEME_STORAGE_KEY)
  return isColorScheme(value) ? value : null
}

/** Stores the colour scheme in localStorage and in the cookie. */
export function saveColorScheme(scheme: ColorScheme) {
  storage()?.setItem(COLOR_SCHEME_STORAGE_KEY, scheme)
  writeCookie(COLOR_SCHEME_COOKIE, scheme)
}

/** Whether the visitor chose a language (else the browser's is used). */
export function hasLanguageCookie() {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${LANGUAGE_COOKIE}=`))
}

/**
 * Stores the language (a locale code, or `system` to follow the browser) and
 * reloads the page so the server renders it in that language.
 */
export function saveLanguageAndReload(locale: string) {
  if (locale === 'system') {
    storage()?.removeItem(LOCALE_STORAGE_KEY)
    removeCookie(LANGUAGE_COOKIE)
  } else {
    storage()?.setItem(LOCALE_STORAGE_KEY, locale)
    writeCookie(LANGUAGE_COOKIE, locale)
  }
  window.location.reload()
}
