/**
 * Discord's endpoints. `DISCORD_BASE_URL` (read at boot) replaces
 * `https://discord.com` (the tests' local server). Tests may also assign the
 * fields; the driver reads them per sign-in.
 */
export const discordEndpoints = endpointsAt('https://discord.com')

/** The endpoints under one base URL (paths as Discord's). */
export function endpointsAt(base: string) {
  const root = base.replace(/\/+$/, '')
  return {
    authorize: `${root}/oauth2/authorize`,
    token: `${root}/api/oauth2/token`,
    user: `${root}/api/users/@me`,
    guilds: `${root}/api/users/@me/guilds`,
  }
}
