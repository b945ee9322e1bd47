import { STATUS_CODES } from 'node:http'

/** The error body of the API, Pingvin's: `error` is a status text or a machine key clients branch on. */
export interface ApiErrorBody {
  statusCode: number
  message: string | string[]
  error: string
  [extra: string]: unknown
}

/**
 * Returns the HTTP status an error should be answered with: its own `status`
 * when it is a 4xx/5xx, else 500.
 */
export function statusOf(error: unknown): number {
  const status = (error as { status?: unknown })?.status
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500
}

/**
 * Shapes any error into the contract's body (docs/api.md, "Errors"). Validation errors become 400
 * with an array of messages; 5xx errors get a generic message so no stack,
 * path, SQL or storage detail reaches a client. An error may carry
 * `responseBody` to answer with an exact body (e.g. the chunk protocol).
 */
export function errorBody(error: unknown): ApiErrorBody {
  const err = error as {
    code?: string
    messages?: unknown
    message?: string
    errorKey?: string
    responseBody?: ApiErrorBody
  }
  if (err?.responseBody) return err.responseBody
  if (err?.code === 'E_VALIDATION_ERROR' && Array.isArray(err.messages)) {
    return {
      statusCode: 400,
      message: (err.messages as { message: string }[]).map((m) => m.message),
      error: 'Bad Request',
    }
  }
  const statusCode = statusOf(error)
  if (statusCode >= 500) {
    return {
      statusCode,
      message: 'Internal server error',
      error: STATUS_CODES[statusCode] ?? 'Error',
    }
  }
  if (err?.code === 'E_ROUTE_NOT_FOUND') {
    return { statusCode, message: 'Not Found', error: 'Not Found' }
  }
  return {
    statusCode,
    message: err?.message || STATUS_CODES[statusCode] || 'Error',
    error: err?.errorKey ?? STATUS_CODES[statusCode] ?? 'Error',
  }
}
