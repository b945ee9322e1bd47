/**
 * The `share_<id>_token` cookies of visitors (named as Pingvin did): reading a
 * share's token from the request and setting a new one, keeping at most
 * `MAX_SHARE_COOKIES` of them per browser.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type Share from '#models/share'
import { secureCookies } from '#http/cookie_security'
import { shareCookieName } from '#services/shares/share_token_service'

/** How many share cookies one browser keeps at most (the newest win). */
export const MAX_SHARE_COOKIES = 10

const SHARE_COOKIE = /^share_(.+)_token$/

/** The share token the request carries for `shareId` (undefined when none). */
export function shareTokenOf(ctx: HttpContext, shareId: string): unknown {
  return ctx.request.plainCookie(shareCookieName(shareId), { encoded: false })
}

/**
 * Sets the `share_<id>_token` cookie (HttpOnly, session) and clears the
 * oldest other share cookies so the browser keeps at most
 * `MAX_SHARE_COOKIES` of them.
 */
export async function setShareCookie(ctx: HttpContext, share: Share, token: string): Promise<void> {
  const secure = await secureCookies(ctx)
  const others: { name: string; issuedAt: number }[] = []
  for (const name of Object.keys(parseCookieNames(ctx.request.header('cookie')))) {
    if (!SHARE_COOKIE.test(name) || name === shareCookieName(share.id)) continue
    const value = ctx.request.plainCookie(name, { encoded: false })
    const claims = typeof value === 'string' ? decodeClaims(value) : null
    others.push({ name, issuedAt: typeof claims?.iat === 'number' ? claims.iat : 0 })
  }
  others.sort((a, b) => b.issuedAt - a.issuedAt)
  for (const stale of others.slice(MAX_SHARE_COOKIES - 1)) {
    ctx.response.clearCookie(stale.name, { path: '/', secure })
  }
  ctx.response.plainCookie(shareCookieName(share.id), token, {
    encode: false,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: undefined,
  })
}

function parseCookieNames(header: string | undefined): Record<string, true> {
  const names: Record<string, true> = {}
  for (const part of (header ?? '').split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) names[name] = true
  }
  return names
}

function decodeClaims(token: string): { iat?: unknown } | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
  } catch {
    return null
  }
}
