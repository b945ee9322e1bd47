import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import {
  MAX_BODY_DEPTH,
  bodyInvalidUnicode,
  bodyTooDeep,
  requestNulCharacter,
} from '#exceptions/request_body_errors'
import { isWellFormedText } from '#validators/rules'

/** Where a walked value came from, for the message naming it. */
type Source = 'body' | 'query'

/** The words naming a field of `source` (or the whole of it when `path` is empty). */
function describe(source: Source, path: string) {
  if (source === 'query') return path ? `The query parameter "${path}"` : 'The query string'
  return path ? `The field "${path}"` : 'The request body'
}

/** Throws when `text` cannot be stored: a lone surrogate or a NUL character. */
function assertStorable(text: string, source: Source, path: string) {
  if (!isWellFormedText(text)) throw bodyInvalidUnicode(describe(source, path))
  if (text.includes('\u0000')) throw requestNulCharacter(describe(source, path))
}

/**
 * Walks a parsed body (or query) without recursion (so no body can overflow
 * the stack) and throws the first problem: deeper than `MAX_BODY_DEPTH`, or a
 * key or string with a lone surrogate (validator.js, the database drivers and
 * `encodeURIComponent` throw on those, which would be a 500) or a NUL
 * character (PostgreSQL refuses it in text).
 */
export function assertAcceptableBody(body: unknown, source: Source = 'body'): void {
  const stack: { value: unknown; depth: number; path: string }[] = [
    { value: body, depth: 0, path: '' },
  ]
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!
    if (typeof value === 'string') {
      assertStorable(value, source, path)
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) throw bodyTooDeep()
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key
      assertStorable(key, source, path)
      stack.push({ value: child, depth: depth + 1, path: childPath })
    }
  }
}

/**
 * Route parameters (decoded from the address) carry no NUL character: no
 * share, user or token id has one, and PostgreSQL would refuse the lookup
 * with an error instead of finding nothing. (Decoding never yields a lone
 * surrogate: malformed UTF-8 is not decoded.)
 */
export function assertAcceptableParams(params: Record<string, unknown>): void {
  for (const value of Object.values(params)) {
    if (typeof value === 'string' && value.includes('\u0000'))
      throw requestNulCharacter('The address')
  }
}

/**
 * Runs after the body parser: refuses bodies nested too deeply, and text
 * that is not valid Unicode or carries a NUL character in the body, the
 * query string or the route parameters, with a 400 before any validator or
 * controller sees them. Uploaded files and raw bodies are not walked.
 */
export default class BodyGuardMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    assertAcceptableParams(ctx.params)
    assertAcceptableBody(ctx.request.qs(), 'query')
    assertAcceptableBody(ctx.request.body())
    return next()
  }
}
