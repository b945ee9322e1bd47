/**
 * Where the Microsoft identity platform lives. `MICROSOFT_LOGIN_BASE_URL`
 * (read at boot) replaces `https://login.microsoftonline.com` (national
 * clouds; the tests' local OpenID provider). Tests may also assign `base`;
 * the driver reads it per sign-in.
 */
export const microsoftEndpoints = {
  base: 'https://login.microsoftonline.com',
}

/** The discovery URI of `tenant` (v2.0 endpoint). */
export function microsoftDiscoveryUri(tenant: string): string {
  return `${microsoftEndpoints.base.replace(/\/+$/, '')}/${encodeURIComponent(tenant)}/v2.0/.well-known/openid-configuration`
}
