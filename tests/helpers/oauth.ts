/**
 * Social-login test set-up: Tern's URL, pointing `general.appUrl` at the
 * test server, switching a provider on with its settings, and reading the
 * error-page redirect of a callback.
 */
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import type { Visited } from '#tests/helpers/oauth_client'

const configService = await app.container.make(ConfigService)

/** The test server's origin (bin/test.ts picks HOST and PORT). */
export function ternUrl(): string {
  return `http://${process.env.HOST}:${process.env.PORT}`
}

/** Points `general.appUrl` at the test server and applies `settings` (full keys). */
export async function configureOauth(settings: Record<string, string | boolean>): Promise<void> {
  await configService.update([
    { key: 'general.appUrl', value: ternUrl() },
    ...Object.entries(settings).map(([key, value]) => ({ key, value })),
  ])
}

/** The `Location` of a Tern answer (throws when it is not a redirect). */
export function locationOf(visited: Visited): string {
  const location = visited.headers.get('location')
  if (visited.status !== 302 || !location) {
    throw new Error(
      `expected a 302 from ${visited.url}, got ${visited.status}: ${visited.body.slice(0, 300)}`
    )
  }
  return location
}

/** The `{error, redirect, params}` of an `/error?...` redirect, or null for another location. */
export function errorPageOf(
  visited: Visited
): { error: string; redirect: string; params: string } | null {
  const location = new URL(locationOf(visited), ternUrl())
  if (location.pathname !== '/error') return null
  return {
    error: location.searchParams.get('error') ?? '',
    redirect: location.searchParams.get('redirect') ?? '',
    params: location.searchParams.get('params') ?? '',
  }
}
