/**
 * Contracts of the configuration-variable extension point. Core categories
 * (app/services/config/definitions.ts) and plugin categories are described
 * with these types and registered in `configRegistry`
 * (`#extensions/config/registry`).
 */

/**
 * Types a variable can have:
 * - `string`: one line of text; `text`: multi-line text;
 * - `number`: an integer unless `validation.integer` is false;
 * - `boolean`;
 * - `filesize`: a whole number of bytes (>= 0);
 * - `timespan`: `"<n> <unit>"`, unit minutes|hours|days|weeks|months|years.
 */
export type ConfigVariableType = 'string' | 'text' | 'number' | 'boolean' | 'filesize' | 'timespan'

/** Every variable type, in the order above. */
export const CONFIG_VARIABLE_TYPES: readonly ConfigVariableType[] = [
  'string',
  'text',
  'number',
  'boolean',
  'filesize',
  'timespan',
]

/** A typed effective value: number (number, filesize), boolean, or string (the rest). */
export type ConfigValue = string | number | boolean

/** Maps a variable type to the TypeScript type of its effective value. */
export type ConfigValueOf<T extends ConfigVariableType> = T extends 'number' | 'filesize'
  ? number
  : T extends 'boolean'
    ? boolean
    : string

/**
 * Extra rules a value must follow (checked on update and on the default at
 * registration). Every rule is optional.
 */
export interface ConfigVariableValidation {
  /** number/filesize: smallest allowed value (inclusive). */
  min?: number
  /** number/filesize: largest allowed value (inclusive). */
  max?: number
  /** number: whether only integers are accepted (default true). */
  integer?: boolean
  /** string/text: the only accepted values. */
  allowed?: readonly string[]
  /** string/text: a pattern the whole value must match. */
  pattern?: RegExp
  /**
   * Any other rule. Receives the typed candidate value and returns an error
   * message (answered as 400) or nothing when the value is fine.
   */
  validate?: (value: ConfigValue) => string | undefined | null | void
  /**
   * The message answered when min/max/allowed/pattern fails (default: a
   * generic "Config variable <key> must be ..." sentence).
   */
  message?: string
}

/** One variable, as a category definition declares it. */
export interface ConfigVariableDefinition {
  /** `<category>.<name>`; the category part must be the id of the category it is declared in. */
  readonly key: string
  readonly type: ConfigVariableType
  /**
   * The default, as stored (a string even for numbers and booleans:
   * `"8"`, `"true"`). It must be a valid value of the type.
   */
  readonly defaultValue: string
  /** Returned to everyone by `GET /api/configs` (default false: admins only). */
  readonly public?: boolean
  /** A secret: masked when read back, kept when the mask is sent back (default false). */
  readonly obscured?: boolean
  /** Whether admins may change it through the API (default true). */
  readonly allowEdit?: boolean
  /** Position inside its category (default: declaration order). */
  readonly order?: number
  /** Extra rules on the value. */
  readonly validation?: ConfigVariableValidation
  /** A short explanation for developers and the admin panel (optional). */
  readonly description?: string
  /**
   * An environment variable (upper snake case, `S3_BUCKET`) whose value,
   * when set and not empty, is stored as this variable's value when the
   * variable is first seeded into the database: a fresh database, or the
   * first start with the plugin that defines it. Never applied again, so a
   * change made in the admin panel stays. Written as stored (`true`,
   * `8`, text); a value the variable refuses stops the start.
   */
  readonly seedFromEnv?: string
}

/** A category of variables: one page of the admin panel's configuration. */
export interface ConfigCategoryDefinition {
  /** Lower-camel id, the first part of every key (`share`, `s3`). */
  readonly id: string
  /** Name shown in the admin panel ("Share", "Social Login"). */
  readonly displayName: string
  /** Position among categories (core: 10, 20, ...; plugins usually 100+). */
  readonly order: number
  readonly variables: readonly ConfigVariableDefinition[]
  /** Who contributed it: `core` or the plugin id (default `core`). */
  readonly source?: string
  /**
   * Internal state, not settings: left out of the admin panel's category
   * list, and `GET /api/configs/admin/<id>` answers 404 (default false).
   */
  readonly hidden?: boolean
}

/**
 * Variables a plugin adds to a category that exists already (core or an
 * earlier plugin's): a sign-in provider's `oauth.github-*` settings join the
 * core "Social Login" category. Give each variable an `order` to place it
 * among the category's variables (default: after them).
 */
export interface ConfigCategoryExtension {
  /** The id of the existing category; every key starts with it. */
  readonly id: string
  /** Marks the entry as an extension (required, so a typo in `id` does not silently create a category). */
  readonly extend: true
  readonly variables: readonly ConfigVariableDefinition[]
  /** Who contributed the variables: the plugin id (set by the plugin loader). */
  readonly source?: string
}

/** A variable as the registry holds it: every optional field resolved. */
export interface RegisteredConfigVariable {
  readonly key: string
  /** The category id (part before the first dot). */
  readonly category: string
  /** The part after the first dot. */
  readonly name: string
  readonly type: ConfigVariableType
  readonly defaultValue: string
  readonly public: boolean
  readonly obscured: boolean
  readonly allowEdit: boolean
  readonly order: number
  readonly validation: ConfigVariableValidation
  readonly description?: string
  /** The environment variable seeding it on its first start (see ConfigVariableDefinition). */
  readonly seedFromEnv?: string
  /** Who defined it: `core` or the plugin id (a plugin's variables may sit in another's category). */
  readonly source: string
}

/** A category as the registry holds it. */
export interface RegisteredConfigCategory {
  readonly id: string
  readonly displayName: string
  readonly order: number
  readonly source: string
  readonly hidden: boolean
  /** Its variables, sorted by order. */
  readonly variables: readonly RegisteredConfigVariable[]
}
