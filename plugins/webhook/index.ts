/**
 * Public surface of the webhook plugin.
 */
export { manifest } from './manifest.js'
export {
  WebhookDispatcher,
  type WebhookDispatcherOptions,
  type WebhookLogger,
} from './src/webhook_dispatcher.js'
export {
  WebhookChannel,
  WEBHOOK_CHANNEL_NAME,
  notificationData,
  routedData,
} from './src/channels/webhook_channel.js'
export {
  WEBHOOK_CONFIG_KEYS,
  webhookConfigCategory,
  webhookSettingsFrom,
  readWebhookSettings,
  parseUrlList,
  checkWebhookUrl,
  type WebhookConfigKey,
  type WebhookSettings,
  type WebhookSettingsSource,
} from './src/settings.js'
export {
  LIFECYCLE_EVENTS,
  WEBHOOK_EVENTS,
  webhookEventName,
  parseEventFilter,
  eventAllowed,
} from './src/events.js'
export {
  signWebhook,
  verifyWebhookSignature,
  signedMaterial,
  SIGNATURE_PREFIX,
  type VerifyOptions,
} from './src/signature.js'
export {
  DEFAULT_RETRY_POLICY,
  retryDelay,
  isRetryableStatus,
  parseRetryAfter,
  retryPolicyFromEnv,
  type RetryPolicy,
} from './src/backoff.js'
export {
  attemptDelivery,
  serializeWebhookBody,
  webhookHeaders,
  type AttemptOutcome,
  type WebhookBody,
} from './src/delivery.js'
export { E_WEBHOOK_DISABLED, E_WEBHOOK_NOT_CONFIGURED } from './src/errors.js'
