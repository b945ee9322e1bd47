import app from '@adonisjs/core/services/app'
import { defineConfig, formatters, loaders } from '@adonisjs/i18n'
import { LOCALES } from '#start/locales'

/**
 * Catalogues live in resources/lang/<locale>/*.json. English is the fallback
 * for every missing message.
 */
const i18nConfig = defineConfig({
  defaultLocale: 'en-US',
  formatter: formatters.icu(),
  supportedLocales: LOCALES.map((locale) => locale.code),
  fallbackLocales: Object.fromEntries(LOCALES.map((locale) => [locale.code, 'en-US'])),
  loaders: [loaders.fs({ location: app.languageFilesPath() })],
})

export default i18nConfig
