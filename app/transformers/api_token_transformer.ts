/**
 * The personal API token objects of `/api/users/me/apiTokens`: a token row
 * as listed (never its secret or digest), and the answer of a creation,
 * which carries the secret this one time.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type { DateTime } from 'luxon'
import type ApiToken from '#models/api_token'
import type { ApiTokenInfo, CreatedApiToken } from '#api/api_token'

export type { ApiTokenInfo, CreatedApiToken }

function iso(value: DateTime | null | undefined): string | null {
  return value ? value.toUTC().toISO() : null
}

/** Turns an `ApiToken` row into the API's token object. */
export default class ApiTokenTransformer extends BaseTransformer<ApiToken> {
  /** The listed token: `{id, name, prefix, createdAt, lastUsedAt, expiresAt}`. */
  toObject(): ApiTokenInfo {
    return {
      id: this.resource.id,
      name: this.resource.name,
      prefix: this.resource.prefix,
      createdAt: iso(this.resource.createdAt)!,
      lastUsedAt: iso(this.resource.lastUsedAt),
      expiresAt: iso(this.resource.expiresAt),
    }
  }

  /** Plain listed token for a response body. */
  static toJSON(row: ApiToken): ApiTokenInfo {
    return new ApiTokenTransformer(row).toObject()
  }

  /** The answer of a creation: the listed token plus `token`, the secret. */
  static createdJSON(row: ApiToken, token: string): CreatedApiToken {
    return { ...ApiTokenTransformer.toJSON(row), token }
  }
}
