import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { MAX_BODY_DEPTH, bodyInvalidUnicode, bodyTooDeep } from '#exceptions/request_body_errors'
import { isWellFormedText } from '#validators/rules'

/**
 * Walks a parsed body without recursion (so no body can overflow the stack)
 * and throws the first problem: deeper than `MAX_BODY_DEPTH`, or a key or
 * string with a lone surrogate (validator.js, the database drivers and
 * `encodeURIComponent` throw on those, which would be a 500).
 */
export function assertAcceptableBody(body: unknown): void {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 0, path: '' }]
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!
    if (typeof value === 'string') {
      if (!isWellFormedText(value)) throw bodyInvalidUnicode(path)
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) throw bodyTooDeep()
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key
      if (!isWellFormedText(key)) throw bodyInvalidUnicode(path)
      stack.push({ value: child, depth: depth + 1, path: childPath })
    }
  }
}

/**
 * Runs after the body parser: refuses bodies nested too deeply or carrying
 * text that is not valid Unicode with a 400 before any validator or
 * controller sees them. Uploaded files and raw bodies are not walked.
 */
export default class BodyGuardMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    assertAcceptableBody(ctx.request.body())
    return next()
  }
}
