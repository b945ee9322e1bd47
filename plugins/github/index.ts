/** Public surface of the GitHub sign-in plugin. */
export { manifest } from './manifest.js'
export {
  TernGithubDriver,
  githubDriverConfig,
  type GithubDriverOptions,
} from './src/github_driver.js'
export { githubEndpoints, githubEndpointsFromEnv } from './src/endpoints.js'
