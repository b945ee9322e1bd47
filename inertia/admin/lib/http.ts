/**
 * The admin panel's HTTP client, over the pages' client (`~/lib/api`):
 * same-origin cookies (the server refuses cross-site mutating requests),
 * JSON in and out, `ApiError` for non-2xx answers. On top of it, the
 * session is kept alive like on the pages (`~/lib/session`): a token about
 * to expire is refreshed before the request, and a 401 is retried once after
 * a refresh (the access cookie may have expired while the refresh cookie,
 * which only `/api/auth/token` receives, is still valid).
 *
 * ```ts
 * const users = await adminHttp.get<PublicUser[]>('/api/users')
 * await adminHttp.upload('/api/configs/admin/logo', formData)
 * ```
 */
import { apiRequest, ApiError, type ApiErrorBody } from '~/lib/api'
import { currentAccessToken, needsRefresh, refreshAccessToken } from '~/lib/session'

let refreshing: Promise<boolean> | null = null

/** One refresh at a time: concurrent requests wait for the same one. */
function refreshOnce(): Promise<boolean> {
  refreshing ??= refreshAccessToken().finally(() => {
    refreshing = null
  })
  return refreshing
}

/** Sends `send()`, refreshing the session first when needed and once more after a 401. */
async function withSession<T>(send: () => Promise<T>): Promise<T> {
  if (needsRefresh(currentAccessToken())) await refreshOnce()
  try {
    return await send()
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode !== 401) throw error
    if (!(await refreshOnce())) throw error
    return send()
  }
}

function errorBodyOf(response: Response, parsed: unknown): ApiErrorBody {
  if (parsed && typeof parsed === 'object' && 'statusCode' in parsed && 'message' in parsed) {
    return parsed as ApiErrorBody
  }
  return {
    statusCode: response.status,
    message: response.statusText || String(response.status),
    error: response.statusText,
  }
}

/** A multipart POST (the browser sets the boundary); same answers as `apiRequest`. */
async function postForm<T>(path: string, form: FormData): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: form,
    })
  } catch (cause) {
    throw new ApiError({
      statusCode: 0,
      message: String((cause as Error)?.message ?? cause),
      error: 'Network Error',
    })
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = text
  }
  if (response.ok) return parsed as T
  throw new ApiError(errorBodyOf(response, parsed))
}

/** The client: one method per verb, plus `upload` for multipart forms. */
export interface AdminHttp {
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>
  get<T = unknown>(path: string): Promise<T>
  post<T = unknown>(path: string, body?: unknown): Promise<T>
  patch<T = unknown>(path: string, body?: unknown): Promise<T>
  delete<T = unknown>(path: string): Promise<T>
  upload<T = unknown>(path: string, form: FormData): Promise<T>
}

/** The admin panel's client (see the module comment). */
export const adminHttp: AdminHttp = {
  request: (method, path, body) => withSession(() => apiRequest(method, path, body)),
  get: (path) => withSession(() => apiRequest('GET', path)),
  post: (path, body = {}) => withSession(() => apiRequest('POST', path, body)),
  patch: (path, body = {}) => withSession(() => apiRequest('PATCH', path, body)),
  delete: (path) => withSession(() => apiRequest('DELETE', path)),
  upload: (path, form) => withSession(() => postForm(path, form)),
}
