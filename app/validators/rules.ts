/**
 * Rules shared by the validators, for input that the plain VineJS types let
 * through to a 500 or a wrong answer: lone UTF-16 surrogates
 * (validator.js throws on them), numbers sent as other JSON types (`true`
 * became 1), query numbers in other notations (`0x10`, `''`) and expirations
 * past the latest storable date.
 */
import vine from '@vinejs/vine'
import { isBeyondLatest, tooLateMessage } from '#services/shares/expiration'

/** A high surrogate not followed by a low one, or a low one without a high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** True when `value` is well-formed UTF-16 (it can be stored and encoded as UTF-8). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value)
}

/** Refuses strings with a lone surrogate; put it before rules that encode the string (`email()`). */
export const wellFormed = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && !isWellFormedText(value)) {
    field.report('{{ field }} contains characters that are not valid Unicode', 'wellFormed', field)
  }
})

/** Refuses a valid expiration input that ends after the latest storable date (year 9999). */
export const storableExpiration = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && isBeyondLatest(value)) {
    field.report(
      tooLateMessage(field.name === 'expiration' ? 'Expiration' : String(field.name)),
      'storable',
      field
    )
  }
})

/** The largest value of an INTEGER column on every database (MySQL, PostgreSQL: signed 32 bits). */
export const MAX_INT_COLUMN = 2_147_483_647

/** A positive whole JSON number that fits an INTEGER column; `true`, `"5"` or `[5]` are refused. */
export const positiveIntegerRule = () =>
  vine.number({ strict: true }).withoutDecimals().positive().max(MAX_INT_COLUMN)

/** Refuses a decimal string outside `min..max`. */
const integerBetween = vine.createRule((value, options: { min: number; max: number }, field) => {
  const number = Number(value)
  if (number < options.min || number > options.max) {
    field.report(`{{ field }} must be between ${options.min} and ${options.max}`, 'between', field)
  }
})

/**
 * A whole number in a query string, written in plain decimal digits only
 * (`Number()` alone would accept `''`, ` 1`, `0x10` or `1e1`), from `min` to
 * `max`; the validated value is a number.
 */
export const queryIntegerRule = (min: number, max: number) =>
  vine
    .string()
    .regex(/^(?:0|[1-9]\d{0,15})$/)
    .use(integerBetween({ min, max }))
    .transform((value) => Number(value))
