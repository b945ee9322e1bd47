/** Public surface of the Discord sign-in plugin. */
export { manifest } from './manifest.js'
export {
  TernDiscordDriver,
  discordDriverConfig,
  type DiscordDriverOptions,
} from './src/discord_driver.js'
export { discordEndpoints, endpointsAt as discordEndpointsAt } from './src/endpoints.js'
