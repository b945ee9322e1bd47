/** Public surface of the Microsoft sign-in plugin. */
export { manifest } from './manifest.js'
export {
  MicrosoftDriver,
  isValidTenant,
  acceptMicrosoftIssuer,
  microsoftEmailVerified,
  CONSUMERS_TENANT_ID,
  type MicrosoftDriverOptions,
} from './src/microsoft_driver.js'
export { microsoftEndpoints, microsoftDiscoveryUri } from './src/endpoints.js'
