/** Public surface of the Google sign-in plugin. */
export { manifest } from './manifest.js'
export {
  TernGoogleDriver,
  googleDriverConfig,
  googleProfile,
  type GoogleDriverOptions,
} from './src/google_driver.js'
export { googleEndpoints, googleEndpointsAt } from './src/endpoints.js'
