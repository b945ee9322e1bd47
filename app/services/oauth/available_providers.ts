import { authProviders } from '#extensions/auth/main'
import { configValues } from '#extensions/config/config_values'

/**
 * Ids of the social-login providers a visitor may use now: registered by an
 * enabled plugin and switched on by their `enabledKey` config variable.
 * Settings are read at call time (one query), so an admin change applies at once.
 */
export async function availableProviders(): Promise<string[]> {
  const providers = authProviders.list()
  if (providers.length === 0) return []
  const enabled = await configValues.getMany(providers.map((provider) => provider.enabledKey))
  return providers.filter((provider) => enabled[provider.enabledKey] === true).map((provider) => provider.id)
}
