import type { ApplicationService } from '@adonisjs/core/types'
import { registerCoreConfigCategories } from '#services/config/definitions'
import { configValues } from '#extensions/config/config_values'
import { exitStartFailed, startFailureLine } from '#start/start_failure'

/**
 * Tern's own start-up work:
 * - register: the core configuration categories enter `configRegistry`
 *   (before any boot(), so plugins that define categories while booting
 *   collide with core keys at once, with a clear error);
 * - boot: the services holding per-process state (logo, version) are bound
 *   as container singletons; the config service becomes the source of `configValues`
 *   (`#extensions/config/config_values`), the plugins' way to read settings,
 *   and the reverse shares add their handlers to the share lifecycle's hooks
 *   (`#services/reverse_shares/reverse_share_hooks`);
 * - start (web and test processes): the configuration variables are seeded
 *   into the database (a new one with the value its `seedFromEnv`
 *   environment variable gives, if any) and the instance secrets (JWT key)
 *   created when the tables exist, so `node ace migration:run` on an empty
 *   database and a server whose database is down still start; a web server
 *   first checks that its APP_KEY is the one the database recorded (one key
 *   for all) and that those environment values are valid.
 */
export default class TernProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    registerCoreConfigCategories()
  }

  async boot() {
    await this.#bindSingletons()
    const { default: ConfigService } = await import('#services/config/config_service')
    configValues.bind(await this.app.container.make(ConfigService))
    const { default: ReverseShareHooks } =
      await import('#services/reverse_shares/reverse_share_hooks')
    const reverseShareHooks = await this.app.container.make(ReverseShareHooks)
    reverseShareHooks.register(await this.app.container.make('tern.hooks'))
  }

  async start() {
    if (!['web', 'test'].includes(this.app.getEnvironment())) return
    const logger = await this.app.container.make('logger')
    if (this.app.getEnvironment() === 'web') {
      await this.#checkSeedValues()
      await this.#verifyAppKey(logger)
    }
    try {
      const { default: db } = await import('@adonisjs/lucid/services/db')
      const { default: ConfigVariable } = await import('#models/config_variable')
      if (!(await db.connection().schema.hasTable(ConfigVariable.table))) {
        // Tests migrate (and seed) in their runner setup, after this point.
        if (this.app.getEnvironment() === 'web') {
          logger.warn('configuration variables not seeded: run the migrations first')
        }
        return
      }
      const { default: ConfigService } = await import('#services/config/config_service')
      const configService = await this.app.container.make(ConfigService)
      const { default: InstanceSecretService } =
        await import('#services/auth/instance_secret_service')
      const added = await configService.seed()
      if (added.length > 0)
        logger.info({ keys: added }, '%d configuration variables seeded', added.length)
      const instanceSecrets = await this.app.container.make(InstanceSecretService)
      await instanceSecrets.ensureAll()
    } catch (error) {
      logger.error({ err: error }, 'configuration variables could not be seeded')
    }
  }

  /**
   * The services that hold per-process state (caches) are singletons of the
   * container; the others are built on each resolution.
   */
  async #bindSingletons() {
    const { default: LogoService } = await import('#services/branding/logo_service')
    const { default: VersionService } = await import('#services/system/version_service')
    this.app.container.singleton(LogoService, () => new LogoService())
    this.app.container.singleton(VersionService, () => new VersionService())
  }

  /**
   * Web server only: a setting's first value given by the environment
   * (`seedFromEnv`, e.g. S3_BUCKET) that the setting refuses stops the start
   * with a line naming the variable, even when the setting exists already
   * or the database is down: a bad value is reported where it is set.
   */
  async #checkSeedValues() {
    const { default: ConfigService } = await import('#services/config/config_service')
    try {
      const configService = await this.app.container.make(ConfigService)
      configService.seedValuesFromEnv()
    } catch (error) {
      await exitStartFailed(startFailureLine(error))
    }
  }

  /**
   * Web server only: refuses to serve with an APP_KEY other than the one the
   * database recorded (#services/system/app_key_fingerprint). A check that
   * cannot run (database down) is logged; /api/health then reports the database.
   */
  async #verifyAppKey(logger: { warn(...args: any[]): void }) {
    const { AppKeyMismatchError, verifyAppKey } =
      await import('#services/system/app_key_fingerprint')
    try {
      await verifyAppKey(String(process.env.APP_KEY))
    } catch (error) {
      if (!(error instanceof AppKeyMismatchError)) {
        return logger.warn({ err: error }, 'the APP_KEY fingerprint could not be checked')
      }
      await exitStartFailed(startFailureLine(error))
    }
  }
}
