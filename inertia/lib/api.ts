/**
 * A small client for Tern's JSON API (`/api/*`) used by the pages: same-origin
 * cookies, JSON in and out, and an `ApiError` carrying the contract's error
 * body (`{statusCode, message, error}`, docs/api.md "Errors") when the answer is not 2xx.
 *
 * ```ts
 * const user = await api.get<PublicUser>('/api/users/me')
 * await api.post('/api/auth/signIn', { username, password })
 * ```
 */
import { apiUrl } from './api_url'

/** The API's error body, Pingvin's: `error` is a status text or a machine key clients branch on. */
export interface ApiErrorBody {
  statusCode: number
  message: string | string[]
  error: string
}

/** An API answer that was not 2xx (or no answer at all: statusCode 0). */
export class ApiError extends Error {
  /** HTTP status (0 when the request did not reach the server). */
  readonly statusCode: number
  /** Short status text or the contract's machine key (`token_expired`, ...). */
  readonly error: string
  /** The message(s) of the body: one, or several for validation errors. */
  readonly messages: string[]
  /** Seconds to wait, from `Retry-After` (429). */
  readonly retryAfter: number | null

  constructor(body: ApiErrorBody, retryAfter: number | null = null) {
    const messages = Array.isArray(body.message)
      ? body.message.map(String)
      : [String(body.message ?? '')]
    super(messages.join(' '))
    this.name = 'ApiError'
    this.statusCode = body.statusCode
    this.error = body.error
    this.messages = messages
    this.retryAfter = retryAfter
  }

  /** The body as the server sent it (`message` string or array). */
  get body(): ApiErrorBody {
    return {
      statusCode: this.statusCode,
      message: this.messages.length === 1 ? this.messages[0] : this.messages,
      error: this.error,
    }
  }
}

/** Whether `value` is an `ApiError`. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    Boolean(value) &&
    typeof value === 'object' &&
    'statusCode' in (value as object) &&
    'message' in (value as object)
  )
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * Sends a request to the API and resolves to the parsed JSON body
 * (undefined for empty answers such as 202/204). Throws `ApiError` otherwise.
 */
export async function apiRequest<T = unknown>(
  method: string,
  path: string,
  body?: unknown
): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (cause) {
    throw new ApiError({
      statusCode: 0,
      message: String((cause as Error)?.message ?? cause),
      error: 'Network Error',
    })
  }
  const parsed = await readBody(response)
  if (response.ok) return parsed as T
  const retryAfter = Number(response.headers.get('retry-after'))
  throw new ApiError(
    isErrorBody(parsed)
      ? parsed
      : {
          statusCode: response.status,
          message: response.statusText || String(response.status),
          error: response.statusText,
        },
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null
  )
}

/** The API client: one method per HTTP verb. */
export const api = {
  get: <T = unknown>(path: string) => apiRequest<T>('GET', path),
  post: <T = unknown>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  patch: <T = unknown>(path: string, body: unknown = {}) => apiRequest<T>('PATCH', path, body),
  put: <T = unknown>(path: string, body: unknown = {}) => apiRequest<T>('PUT', path, body),
  delete: <T = unknown>(path: string, body?: unknown) => apiRequest<T>('DELETE', path, body),
}

/** Paths of the API routes the pages call, by route name (see ./api_url.ts). */
export const apiPaths = {
  signUp: apiUrl('auth.signUp'),
  signIn: apiUrl('auth.signIn'),
  signInTotp: apiUrl('auth.signInTotp'),
  signOut: apiUrl('auth.signOut'),
  token: apiUrl('auth.token'),
  requestPasswordReset: (email: string) => apiUrl('auth.requestPasswordReset', { email }),
  resetPassword: apiUrl('auth.resetPassword'),
  password: apiUrl('auth.password'),
  totpEnable: apiUrl('auth.totp.enable'),
  totpVerify: apiUrl('auth.totp.verify'),
  totpDisable: apiUrl('auth.totp.disable'),
  me: apiUrl('users.me.show'),
  apiTokens: apiUrl('users.apiTokens.index'),
  apiToken: (id: string) => apiUrl('users.apiTokens.destroy', { id }),
  oauthAvailable: apiUrl('oauth.available'),
  oauthAuth: (provider: string) => apiUrl('oauth.authorize', { provider }),
  oauthStatus: apiUrl('oauth.status'),
  oauthUnlink: (provider: string) => apiUrl('oauth.unlink', { provider }),
  userNotifications: apiUrl('user.notifications.show'),
  adminConfig: apiUrl('configs.admin.categories'),
} as const
