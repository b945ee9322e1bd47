import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { passwordVerifiers } from '#extensions/auth/password_verifiers'
import { LdapVerifier } from './src/ldap_verifier.js'
import { readLdapSettings } from './src/settings.js'

/**
 * Registers the `ldap` password verifier: the sign-in asks it after the
 * local password, while `ldap.enabled` is on (settings read per sign-in).
 */
export default class LdapProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    passwordVerifiers.register(new LdapVerifier({ settings: readLdapSettings }))
  }
}
