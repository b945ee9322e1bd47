/** Public surface of the LDAP sign-in plugin. */
export { manifest } from './manifest.js'
export { LdapVerifier, attributeValues, searchFilter } from './src/ldap_verifier.js'
export {
  LDAP_CONFIG_KEYS,
  USERNAME_PLACEHOLDER,
  ldapConfigCategory,
  readLdapSettings,
  urlsOf,
  type LdapSettings,
} from './src/settings.js'
