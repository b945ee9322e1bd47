/**
 * @deprecated Transitional re-exports while callers move: request-bound
 * authentication lives in #middleware/auth/current_user, the token checks in
 * #services/auth/authentication_service. Deleted once nothing imports it.
 */
export {
  authenticate,
  currentUser,
  isCrossSiteRequest,
  refuseCrossSiteCookieRequest,
  type Authentication,
} from '#middleware/auth/current_user'
export { ACCESS_TOKEN_COOKIE } from '#controllers/auth/session_cookies'
export { API_TOKEN_PREFIX } from '#services/api_tokens/api_token_service'
