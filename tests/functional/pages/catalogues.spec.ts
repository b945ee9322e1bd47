import { test } from '@japa/runner'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import app from '@adonisjs/core/services/app'
import i18nManager from '@adonisjs/i18n/services/main'
import { LOCALES } from '#start/locales'

type Json = string | { [key: string]: Json }

/**
 * A locale's catalogue, flattened like the server and the pages do; with
 * `nested`, the files of sub-folders (admin/, admin/config/variables/) too,
 * keyed `admin/config/variables/ldap:server.label`.
 */
function catalogue(locale: string, { nested = false } = {}) {
  const messages: Record<string, string> = {}
  const walk = (prefix: string, value: Json) => {
    if (typeof value === 'string') messages[prefix] = value
    else for (const [key, child] of Object.entries(value)) walk(`${prefix}.${key}`, child)
  }
  const read = (folder: string, relative: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = `${folder}/${name}`
      if (nested && statSync(path).isDirectory()) read(path, `${relative}${name}/`)
      if (!name.endsWith('.json')) continue
      const file = name.replace(/\.json$/, '')
      const json = JSON.parse(readFileSync(path, 'utf8')) as Json
      if (!nested) walk(file, json)
      else if (typeof json !== 'string') {
        for (const [key, value] of Object.entries(json)) walk(`${relative}${file}:${key}`, value)
      }
    }
  }
  read(app.languageFilesPath(locale), '')
  return messages
}

/** Every argument name of an ICU message, nested ones included, sorted and unique. */
function argumentNames(elements: MessageFormatElement[], names = new Set<string>()) {
  for (const element of elements) {
    if (element.type !== TYPE.literal && element.type !== TYPE.pound) names.add(element.value)
    if ('options' in element)
      for (const option of Object.values(element.options)) argumentNames(option.value, names)
    if (element.type === TYPE.tag) argumentNames(element.children, names)
  }
  return [...names].sort()
}

/** Problems of the plural forms of `elements` for `locale`: categories it lacks or that it does not have. */
function pluralProblems(elements: MessageFormatElement[], locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]
  const problems: string[] = []
  for (const element of elements) {
    if (element.type === TYPE.plural && element.pluralType !== 'ordinal') {
      const keys = Object.keys(element.options).filter((key) => !key.startsWith('='))
      for (const key of keys)
        if (!categories.includes(key))
          problems.push(`plural form "${key}" is not one of ${locale}'s`)
      for (const category of categories)
        if (!keys.includes(category)) problems.push(`plural form "${category}" is missing`)
    }
    if ('options' in element)
      for (const option of Object.values(element.options))
        problems.push(...pluralProblems(option.value, locale))
  }
  return problems
}

/** Keys a language keeps identical to English on purpose (brand names, units, loan words), per language. */
function sameAsEnglishAllowed(locale: string): Set<string> {
  const path = app.makePath('tests/fixtures/i18n/same_as_english', `${locale}.json`)
  return new Set(existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as string[]) : [])
}

test.group('Pages | catalogues', () => {
  test('every language of the spec has a catalogue folder with the same files as English', ({
    assert,
  }) => {
    const english = readdirSync(app.languageFilesPath('en-US')).sort()
    assert.isAbove(english.length, 0)
    assert.lengthOf(LOCALES, 22)
    for (const { code } of LOCALES) {
      assert.deepEqual(readdirSync(app.languageFilesPath(code)).sort(), english, code)
    }
  })

  test('every language translates every message of the pages, the admin panel, e-mails and the server', ({
    assert,
  }) => {
    const english = catalogue('en-US', { nested: true })
    assert.isAbove(Object.keys(english).length, 900)
    const problems: string[] = []
    for (const { code } of LOCALES.filter((locale) => locale.code !== 'en-US')) {
      const messages = catalogue(code, { nested: true })
      const allowed = sameAsEnglishAllowed(code)
      for (const key of Object.keys(messages))
        if (!(key in english)) problems.push(`${code} ${key}: not an English key`)
      for (const [key, source] of Object.entries(english)) {
        const message = messages[key]
        if (message === undefined) {
          problems.push(`${code} ${key}: missing`)
          continue
        }
        let elements: MessageFormatElement[]
        try {
          elements = parse(message, { requiresOtherClause: true })
        } catch (error) {
          problems.push(`${code} ${key}: invalid ICU (${(error as Error).message})`)
          continue
        }
        const expected = argumentNames(parse(source)).join(', ')
        if (argumentNames(elements).join(', ') !== expected) {
          problems.push(
            `${code} ${key}: arguments ${argumentNames(elements).join(', ')} instead of ${expected}`
          )
        }
        for (const problem of pluralProblems(elements, code))
          problems.push(`${code} ${key}: ${problem}`)
        if (message === source && source.trim() !== '' && !allowed.has(key))
          problems.push(`${code} ${key}: same as English`)
      }
      for (const key of allowed)
        if (messages[key] !== english[key])
          problems.push(`${code} ${key}: allowed to equal English but does not`)
    }
    assert.deepEqual(problems, [])
  })

  test('the catalogue check sees a missing key, a stray argument, a wrong plural form and an untranslated value', ({
    assert,
  }) => {
    // The helpers above on made-up Russian messages: each defect is reported.
    const russian = parse('{count, plural, one {# файл} other {# файлов}} {extra}')
    assert.deepEqual(argumentNames(russian), ['count', 'extra'])
    assert.sameMembers(pluralProblems(russian, 'ru-RU'), [
      'plural form "few" is missing',
      'plural form "many" is missing',
    ])
    assert.deepEqual(
      pluralProblems(parse('{n, plural, one {# a} two {# b} other {# c}}'), 'ja-JP'),
      ['plural form "one" is not one of ja-JP\'s', 'plural form "two" is not one of ja-JP\'s']
    )
    assert.throws(() => parse('{count, plural, one {# file}}', { requiresOtherClause: true }))
  })

  test('the server reads the same keys, with English as the fallback', ({ assert }) => {
    assert.equal(i18nManager.locale('de-DE').t('shell.nav.signIn'), 'Anmelden')
    assert.equal(
      i18nManager.locale('fr-FR').t('shell.nav.userMenu', { username: 'ada' }),
      'Menu du compte de ada'
    )
    assert.notEqual(
      i18nManager.locale('hu-HU').t('errors.notFound.heading'),
      "Oops this page doesn't exist."
    )
    assert.equal(
      i18nManager.locale('xx-XX').t('errors.notFound.heading'),
      "Oops this page doesn't exist."
    )
  })
})
