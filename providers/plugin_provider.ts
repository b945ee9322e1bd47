import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Loads the plugins enabled by TERN_PLUGINS (placeholder until the plugin
 * system lands).
 */
export default class PluginProvider {
  constructor(protected app: ApplicationService) {}
}
