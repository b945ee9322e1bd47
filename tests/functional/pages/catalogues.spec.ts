import { test } from '@japa/runner'
import { readdirSync, readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import i18nManager from '@adonisjs/i18n/services/main'
import { LOCALES } from '#start/locales'

type Json = string | { [key: string]: Json }

/** A locale's catalogue, flattened like the server and the pages do. */
function catalogue(locale: string) {
  const messages: Record<string, string> = {}
  const walk = (prefix: string, value: Json) => {
    if (typeof value === 'string') messages[prefix] = value
    else for (const [key, nested] of Object.entries(value)) walk(`${prefix}.${key}`, nested)
  }
  const folder = app.languageFilesPath(locale)
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    walk(file.replace(/\.json$/, ''), JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')))
  }
  return messages
}

/** Placeholder names of an ICU message (`{name}`, `{count, plural, ...}`). */
function placeholders(message: string) {
  return [...message.matchAll(/\{\s*([A-Za-z0-9_]+)\s*[,}]/g)].map((match) => match[1]).sort()
}

test.group('Pages | catalogues', () => {
  test('every language of the spec has a catalogue folder with the same files as English', ({ assert }) => {
    const english = readdirSync(app.languageFilesPath('en-US')).sort()
    assert.isAbove(english.length, 0)
    assert.lengthOf(LOCALES, 22)
    for (const { code } of LOCALES) {
      assert.deepEqual(readdirSync(app.languageFilesPath(code)).sort(), english, code)
    }
  })

  test('translations only use English keys and the same placeholders', ({ assert }) => {
    const english = catalogue('en-US')
    for (const { code } of LOCALES) {
      for (const [key, message] of Object.entries(catalogue(code))) {
        assert.isString(english[key], `${code}: ${key} is not an English key`)
        assert.deepEqual(placeholders(message), placeholders(english[key]), `${code}: ${key}`)
      }
    }
  })

  test('German and French translate every shell, home and error message', ({ assert }) => {
    const english = Object.keys(catalogue('en-US'))
    for (const code of ['de-DE', 'fr-FR']) {
      assert.sameMembers(Object.keys(catalogue(code)), english, code)
    }
  })

  test('the server reads the same keys, with English as the fallback', ({ assert }) => {
    assert.equal(i18nManager.locale('de-DE').t('shell.nav.signIn'), 'Anmelden')
    assert.equal(i18nManager.locale('fr-FR').t('shell.nav.userMenu', { username: 'ada' }), 'Menu du compte de ada')
    assert.equal(i18nManager.locale('hu-HU').t('errors.notFound.heading'), "Oops this page doesn't exist.")
  })
})
