/**
 * The OIDC provider's settings: config variables `oauth.oidc-*` of the
 * "Social Login" category, read per sign-in (an admin change applies at once).
 */

/** Every config key the OIDC provider reads. */
export const OIDC_CONFIG_KEYS = [
  'oauth.oidc-discoveryUri',
  'oauth.oidc-usernameClaim',
  'oauth.oidc-scope',
  'oauth.oidc-clientId',
  'oauth.oidc-clientSecret',
  'oauth.oidc-signOut',
] as const

/** The config variable that switches the provider on. */
export const OIDC_ENABLED_KEY = 'oauth.oidc-enabled'

/** Typed settings of one OIDC client. */
export interface OidcSettings {
  /** URL of the provider's `/.well-known/openid-configuration`. */
  discoveryUri: string
  clientId: string
  clientSecret: string
  /** Space-separated scopes; `openid` is added when missing. */
  scope: string
  /** The claim that names the user (empty: preferred_username, then name, then the e-mail's local part). */
  usernameClaim: string
  /** Whether signing out of Tern also signs out at the provider (end-session endpoint). */
  signOut: boolean
}

/** Settings from the effective config values (keyed by full key). */
export function oidcSettingsFrom(
  config: Readonly<Record<string, string | number | boolean>>
): OidcSettings {
  const text = (key: string) => String(config[key] ?? '').trim()
  return {
    discoveryUri: text('oauth.oidc-discoveryUri'),
    clientId: text('oauth.oidc-clientId'),
    clientSecret: String(config['oauth.oidc-clientSecret'] ?? ''),
    scope: text('oauth.oidc-scope') || 'openid email profile',
    usernameClaim: text('oauth.oidc-usernameClaim'),
    signOut: config['oauth.oidc-signOut'] === true,
  }
}
