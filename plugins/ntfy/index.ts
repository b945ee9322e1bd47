/**
 * Public surface of the ntfy plugin.
 */
export { manifest } from './manifest.js'
export {
  NtfyChannel,
  NTFY_CHANNEL_NAME,
  EVENT_TAGS,
  clickTarget,
  ntfyMessageOf,
  type NtfyChannelOptions,
} from './src/ntfy_channel.js'
export {
  publish,
  ntfyRequest,
  headerText,
  truncateUtf8,
  clickUrl,
  MAX_BODY_BYTES,
  type NtfyMessage,
  type NtfyRequest,
  type PublishOptions,
} from './src/publish.js'
export {
  NTFY_CONFIG_KEYS,
  ntfyConfigCategory,
  ntfySettingsFrom,
  readNtfySettings,
  checkServerUrl,
  TOPIC_PATTERN,
  type NtfyConfigKey,
  type NtfySettings,
  type NtfySettingsSource,
} from './src/settings.js'
export { E_NTFY_NOT_CONFIGURED } from './src/errors.js'
