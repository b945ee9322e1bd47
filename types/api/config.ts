/**
 * The configuration objects of the HTTP API (`/api/configs*`, Pingvin-compatible),
 * shared by the server (app/transformers/config_variable_transformer.ts returns
 * them) and the browser code (which imports them as `#api/config`).
 * Plain types only: this folder imports nothing from the server or the browser.
 */

/** The type of a configuration variable; its value's string form depends on it. */
export type ConfigType = 'string' | 'text' | 'number' | 'boolean' | 'filesize' | 'timespan'

/**
 * An item of `GET /api/configs`. As in Pingvin, `value` is the effective value
 * as a string (`"1000000000"`, `"true"`); clients convert it by `type`.
 */
export interface PublicConfigVariable {
  key: string
  value: string
  type: ConfigType
}

/**
 * An item of `GET /api/configs/admin/:category` and of the PATCH reply.
 * `value` is the effective value as a string, masked for obscured variables
 * (the mask when set, `""` when not); `secret` = not public (Pingvin's
 * name); `updatedAt` is null when the value was never stored.
 */
export interface AdminConfigVariable {
  key: string
  name: string
  category: string
  type: ConfigType
  /** The effective value as a string; the mask for a set obscured value. */
  value: string
  defaultValue: string
  secret: boolean
  obscured: boolean
  allowEdit: boolean
  order: number
  updatedAt: string | null
  /** (ext) Bounds of a number or file size variable, when its rules have them (the admin panel's editors use them). */
  min?: number
  max?: number
}

/**
 * An item of `GET /api/configs/admin`: one category of the admin panel's
 * configuration menu, in order. `source` is `core` or the id of the plugin
 * that added it.
 */
export interface AdminConfigCategory {
  category: string
  name: string
  order: number
  source: string
}
