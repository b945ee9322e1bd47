/**
 * Public surface of the OpenID Connect plugin (other OIDC-based providers,
 * such as Microsoft, build on `OidcDriver`).
 */
export { manifest } from './manifest.js'
export {
  OidcDriver,
  endSessionUrl,
  type OidcDriverConfig,
  type OidcAccessToken,
  type OidcClaims,
  type OidcUser,
} from './src/oidc_driver.js'
export {
  discover,
  keySet,
  clearDiscoveryCache,
  type OidcProviderMetadata,
} from './src/discovery.js'
export {
  OIDC_CONFIG_KEYS,
  OIDC_ENABLED_KEY,
  oidcSettingsFrom,
  type OidcSettings,
} from './src/settings.js'
