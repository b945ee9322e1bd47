import { definePlugin } from '#extensions/plugins/define_plugin'
import { ldapConfigCategory } from './src/settings.js'

/**
 * The LDAP plugin: sign-in with a login name and password checked by an
 * LDAP directory (OpenLDAP, Active Directory...), configured by the admin
 * category "LDAP" (`ldap.*`, Pingvin Share's keys). Off until `ldap.enabled`.
 */
export const manifest = definePlugin({
  id: 'ldap',
  displayName: 'LDAP sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with an LDAP account: service-account bind, user search by a filter, bind as the user; the Tern account is created or linked at the first sign-in and an admin group maps to the admin flag. Configured in the admin settings (LDAP category).',
  provides: { auth: ['ldap'] },
  requires: [],
  config: [ldapConfigCategory],
  env: [],
})
