/**
 * The settings of a sign-in provider, for its plugin manifest's `config`:
 * the variables `oauth.<provider>-enabled`, any extra ones, then
 * `oauth.<provider>-clientId` and `oauth.<provider>-clientSecret` (obscured)
 * and any `after` ones,
 * added to the core "Social Login" category (`oauth`), as Pingvin Share
 * names them. A disabled plugin's settings are not offered.
 *
 * ```ts
 * export const manifest = definePlugin({
 *   id: 'gitlab',
 *   ...
 *   config: [signInSettings('gitlab')],
 * })
 * ```
 */
import type { ConfigCategoryExtension, ConfigVariableDefinition } from '#extensions/config/types'

/** Options of `signInSettings`. */
export interface SignInSettingsOptions {
  /**
   * Variables between `enabled` and `clientId` (full keys `oauth.<provider>-<name>`),
   * such as a tenant or a discovery URI.
   */
  extra?: readonly ConfigVariableDefinition[]
  /** Variables after `clientSecret` (OIDC's `oauth.oidc-signOut`). */
  after?: readonly ConfigVariableDefinition[]
  /**
   * Position of the first variable in the category; the others follow
   * (default: after the category's variables). The first-party providers
   * use 10 (github), 20 (google), 30 (microsoft), 40 (discord), 50 (oidc),
   * so `GET /api/configs` lists them in Pingvin Share's order.
   */
  order?: number
  /** Leave out `clientId`/`clientSecret` (providers that name them otherwise). */
  withoutClient?: boolean
}

/** The `config` entry of a sign-in provider plugin (see the module comment). */
export function signInSettings(
  provider: string,
  options: SignInSettingsOptions = {}
): ConfigCategoryExtension {
  const variables: ConfigVariableDefinition[] = [
    { key: `oauth.${provider}-enabled`, type: 'boolean', defaultValue: 'false' },
    ...(options.extra ?? []),
    ...(options.withoutClient
      ? []
      : ([
          { key: `oauth.${provider}-clientId`, type: 'string', defaultValue: '' },
          {
            key: `oauth.${provider}-clientSecret`,
            type: 'string',
            defaultValue: '',
            obscured: true,
          },
        ] as const)),
    ...(options.after ?? []),
  ]
  const order = options.order
  return {
    id: 'oauth',
    extend: true,
    variables:
      order === undefined
        ? variables
        : variables.map((variable, index) => ({ ...variable, order: order + index })),
  }
}
