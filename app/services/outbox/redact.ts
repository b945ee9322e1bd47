/**
 * Makes a delivery error safe to store and show to admins: a reset link or
 * a token in a URL is a secret, and so are the channel's own credentials.
 */

const MAX_LENGTH = 1000
const TOKEN_SEGMENT = /\/[A-Za-z0-9_-]{24,}(?=[/?#\s"'<>)]|$)/g
const QUERY = /(https?:\/\/[^\s?#"'<>]*)\?[^\s#"'<>]*/g

/**
 * `text` with query strings and token-like path segments of URLs replaced by
 * `[redacted]`, every value of `secrets` (non-empty) too, cut to 1000 chars.
 */
export function redactDeliveryError(text: string, secrets: readonly string[] = []): string {
  let safe = text
  for (const secret of secrets) {
    if (secret.length >= 4) safe = safe.split(secret).join('[redacted]')
  }
  safe = safe.replace(QUERY, '$1?[redacted]').replace(TOKEN_SEGMENT, '/[redacted]')
  return safe.length > MAX_LENGTH ? `${safe.slice(0, MAX_LENGTH - 1)}…` : safe
}
