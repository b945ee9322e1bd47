/**
 * ICU MessageFormat for the pages through `intl-messageformat`, the formatter
 * the server's @adonisjs/i18n uses (same major, same `ignoreTag` setting), so
 * a catalogue message reads the same on both sides: `{name}`, `{count, plural,
 * =0 {none} one {# file} other {# files}}`, `{kind, select, admin {...} other
 * {...}}`, `{size, number}`, and ICU quoting (`''`, `'{...}'`).
 *
 * Unlike intl-messageformat, a missing value does not throw: a placeholder
 * without its value is left as written (`{name}`) so it is visible, a plural
 * counts it as 0 and a select takes its `other` branch. A message that does
 * not parse, or lacks the value of a formatted placeholder (`{size, number}`),
 * is shown as written.
 */
import { IntlMessageFormat } from 'intl-messageformat'

/** The values a message may use. */
export type MessageValues = Record<string, string | number | boolean | null | undefined>

type Element = ReturnType<IntlMessageFormat['getAst']>[number]

/** Element types of a parsed message (`TYPE` of @formatjs/icu-messageformat-parser). */
const LITERAL = 0
const ARGUMENT = 1
const SELECT = 5
const PLURAL = 6
const POUND = 7

const compiled = new Map<string, IntlMessageFormat | null>()
const numberFormats = new Map<string, Intl.NumberFormat>()

/** The number format of `locale` (cached). */
function numbers(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale)
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)))
  return format
}

/** The compiled `message` for `locale` (cached), or null when it does not parse. */
function compile(message: string, locale: string): IntlMessageFormat | null {
  const key = `${locale}\u0000${message}`
  let format = compiled.get(key)
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true })
    } catch {
      format = null
    }
    compiled.set(key, format)
  }
  return format
}

/**
 * The values intl-messageformat gets for `elements` (branches included):
 * a number in `{name}` is written with the locale's grouping ("1,200", where
 * intl-messageformat would write "1200"), other values become text, a missing
 * `{name}` its own text, a missing count 0 and a missing select value its text
 * (so `other`).
 * Null when a formatted placeholder (number, date, time) has no value.
 */
function prepare(
  elements: Element[],
  values: MessageValues,
  locale: string,
  into: Record<string, string | number> = {}
): Record<string, string | number> | null {
  for (const element of elements) {
    if (element.type === LITERAL || element.type === POUND) continue
    const value = values[element.value]
    if (element.type === PLURAL) into[element.value] = Number(value ?? 0)
    else if (element.type === SELECT) into[element.value] = String(value)
    else if (typeof value === 'number')
      into[element.value] = element.type === ARGUMENT ? numbers(locale).format(value) : value
    else if (value !== undefined && value !== null) into[element.value] = String(value)
    else if (element.type === ARGUMENT) into[element.value] ??= `{${element.value}}`
    else return null
    if (element.type === SELECT || element.type === PLURAL) {
      for (const option of Object.values(element.options)) {
        if (!prepare(option.value, values, locale, into)) return null
      }
    }
  }
  return into
}

/**
 * Formats `message` with `values` for `locale` (see the module comment for
 * missing values).
 */
export function formatMessage(
  message: string,
  values: MessageValues = {},
  locale = 'en-US'
): string {
  if (!message.includes('{') && !message.includes("'")) return message
  const format = compile(message, locale)
  const prepared = format && prepare(format.getAst(), values, locale)
  if (!format || !prepared) return message
  try {
    return String(format.format(prepared))
  } catch {
    return message
  }
}
