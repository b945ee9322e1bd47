/**
 * Errors of the social-login routes that are not error-page redirects: a
 * provider that is unknown or switched off (403), and unlinking a provider
 * that is not linked (400 with `error: "not_linked"`).
 */
import { ForbiddenException, BadRequestException } from '#services/auth/auth_errors'

/** 403 for `GET /api/oauth/auth/:provider` with an unknown or disabled provider. */
export function providerNotAvailable(): ForbiddenException {
  return new ForbiddenException('This social login provider is not enabled')
}

/** 400 `not_linked` for `POST /api/oauth/unlink/:provider`. */
export function notLinked(): BadRequestException {
  return new BadRequestException('The account is not yet linked', 'not_linked')
}
