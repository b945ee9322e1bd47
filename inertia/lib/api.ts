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

/** Paths of the API routes the pages call. */
export const apiPaths = {
  signUp: '/api/auth/signUp',
  signIn: '/api/auth/signIn',
  signInTotp: '/api/auth/signIn/totp',
  signOut: '/api/auth/signOut',
  token: '/api/auth/token',
  requestPasswordReset: (email: string) => `/api/auth/resetPassword/${encodeURIComponent(email)}`,
  resetPassword: '/api/auth/resetPassword',
  password: '/api/auth/password',
  totpEnable: '/api/auth/totp/enable',
  totpVerify: '/api/auth/totp/verify',
  totpDisable: '/api/auth/totp/disable',
  me: '/api/users/me',
  apiTokens: '/api/users/me/apiTokens',
  apiToken: (id: string) => `/api/users/me/apiTokens/${encodeURIComponent(id)}`,
  oauthAvailable: '/api/oauth/available',
  oauthAuth: (provider: string) => `/api/oauth/auth/${encodeURIComponent(provider)}`,
  oauthStatus: '/api/oauth/status',
  oauthUnlink: (provider: string) => `/api/oauth/unlink/${encodeURIComponent(provider)}`,
  userNotifications: '/api/user/notifications',
  adminConfig: '/api/configs/admin',
} as const
