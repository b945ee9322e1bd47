import type { ApplicationService } from '@adonisjs/core/types'
import { adminContributions, type AdminContributionRegistry } from '#extensions/admin/main'
import { authProviders, type AuthProviderRegistry, passwordVerifiers } from '#extensions/auth/main'
import { configRegistry } from '#extensions/config/registry'
import { hooks, type HookRunner } from '#extensions/hooks/main'
import { notifications, type NotificationManager } from '#extensions/notifications/main'
import type { PluginContext, PluginManifest } from '#extensions/plugins/define_plugin'
import { isPluginError } from '#extensions/plugins/errors'
import { pluginRegistry, type PluginRegistry } from '#extensions/plugins/main'
import {
  loadPlugins,
  parseEnabledPlugins,
  pluginSearchPaths,
} from '#extensions/plugins/plugin_loader'
import { storage, type StorageManager } from '#extensions/storage/main'
import { exitStartFailed, startFailureLine } from '#start/start_failure'

declare module '@adonisjs/core/types' {
  interface ContainerBindings {
    'tern.plugins': PluginRegistry
    'tern.storage': StorageManager
    'tern.hooks': HookRunner
    'tern.auth_providers': AuthProviderRegistry
    'tern.admin': AdminContributionRegistry
    'notifications.manager': NotificationManager
  }
}

/**
 * The plugin host. `register` binds the extension-point registries; `boot`
 * loads the plugins enabled by TERN_PLUGINS (searched in `plugins/` and the
 * folders of TERN_PLUGIN_PATHS), registers their config categories and runs
 * their `register` and `boot`; `start`, `ready` and `shutdown` follow the
 * application's. A plugin problem (unknown, duplicate, invalid manifest,
 * engine mismatch, missing requirement, failing provider) stops the process
 * with one line on stderr naming the plugin, and exit code 1.
 */
export default class PluginProvider {
  constructor(protected app: ApplicationService) {}

  /** Binds the registries (the same instances `#extensions/<point>/main` exports). */
  register() {
    this.app.container.bindValue('tern.plugins', pluginRegistry)
    this.app.container.bindValue('tern.storage', storage)
    this.app.container.bindValue('tern.hooks', hooks)
    this.app.container.bindValue('tern.auth_providers', authProviders)
    this.app.container.bindValue('tern.admin', adminContributions)
    this.app.container.bindValue('notifications.manager', notifications)
  }

  /** Loads, checks and boots the enabled plugins. */
  async boot() {
    hooks.attach(await this.app.container.make('emitter'), await this.app.container.make('logger'))
    await this.#guard(async () => {
      const { default: env } = await import('#start/env')
      await this.loadPlugins(env)
      pluginRegistry.defineConfigCategories((definition) =>
        configRegistry.defineCategory(definition)
      )
      pluginRegistry.instantiate(this.app, (manifest) => this.contextOf(manifest, env))
      await pluginRegistry.run('register')
      await pluginRegistry.run('boot')
      pluginRegistry.verifyProvides({
        storage,
        // A sign-in provider (OAuth) or a password verifier (LDAP) of that id.
        auth: { has: (id: string) => authProviders.has(id) || passwordVerifiers.has(id) },
        notifications,
        admin: adminContributions,
      })
    })
  }

  /** Runs the plugins' `start`. */
  async start() {
    await this.#guard(() => pluginRegistry.run('start'))
  }

  /** Runs the plugins' `ready`. */
  async ready() {
    await this.#guard(() => pluginRegistry.run('ready'))
  }

  /** Runs the plugins' `shutdown` (reverse order), then closes notification channels. */
  async shutdown() {
    try {
      await pluginRegistry.run('shutdown')
    } finally {
      await notifications.closeAll()
    }
  }

  /** Reads TERN_PLUGINS / TERN_PLUGIN_PATHS and loads the enabled plugins. */
  protected async loadPlugins(env: { get(name: string): any }) {
    const plugins = await loadPlugins({
      enabled: parseEnabledPlugins(env.get('TERN_PLUGINS')),
      searchPaths: pluginSearchPaths(this.app.appRoot, env.get('TERN_PLUGIN_PATHS')),
    })
    pluginRegistry.use(plugins).checkEnvironment((name) => env.get(name) ?? process.env[name])
  }

  /** The context handed to a plugin provider. */
  protected contextOf(manifest: PluginManifest, env: PluginContext['env']): PluginContext {
    return {
      manifest,
      env,
      routes: async (define) => {
        const router = await this.app.container.make('router')
        router
          .group(() => define(router))
          .prefix(`/plugins/${manifest.id}`)
          .as(`plugins.${manifest.id}`)
      },
    }
  }

  /**
   * Runs `step`; a plugin error ends the process with its one-line message
   * (a stack trace would bury the plugin name), anything else propagates.
   */
  async #guard(step: () => Promise<void>) {
    try {
      await step()
    } catch (error) {
      if (!isPluginError(error)) throw error
      await exitStartFailed(startFailureLine(error))
    }
  }
}
