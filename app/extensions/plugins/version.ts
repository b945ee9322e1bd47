/**
 * The version of the host plugin API (the extension points of
 * `app/extensions`). A plugin's manifest `engine` is a semver range this
 * version must satisfy. Bump the major on breaking changes of any contract,
 * the minor when a contract gains something.
 */
export const PLUGIN_API_VERSION = '1.0.0'
