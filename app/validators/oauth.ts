/**
 * The `:provider` path parameter of the social-login routes (`/api/oauth/*`).
 * Provider ids are plugin ids and their like: letters, digits, `-` and `_`.
 * Anything else (NUL, space, quotes, U+202E...) is refused before it reaches
 * a cookie name, a redirect or a query.
 */

/** A provider id: 1-64 letters, digits, `-` or `_`. */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** True when `value` can be a provider id. */
export function isProviderId(value: unknown): value is string {
  return typeof value === 'string' && PROVIDER_ID_PATTERN.test(value)
}
