/**
 * URLs of the API routes by route name, typed from the server's routes
 * (api_routes.generated.ts, generated from start/routes/*.ts): a name that no
 * longer exists, a missing or unknown path parameter fails `npm run typecheck`.
 * Parameters are URL-encoded (`encodeURIComponent`).
 *
 * ```ts
 * apiUrl('users.me.show') // '/api/users/me'
 * apiUrl('shares.files.download', { id, fileId }) // '/api/shares/<id>/files/<fileId>'
 * ```
 */
import { apiRoutes } from './api_routes.generated.js'

/** The name of an API route (`start/routes/*.ts`, `.as(...)` with its groups' prefixes). */
export type ApiRouteName = keyof typeof apiRoutes

/** The path pattern of a route (`/api/shares/:id`). */
export type ApiRoutePattern<N extends ApiRouteName> = (typeof apiRoutes)[N]

/** The parameter names of a pattern: `'/api/shares/:id/files/:fileId'` → `'id' | 'fileId'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | ParamNames<Rest>
  : P extends `${string}:${infer Param}`
    ? Param
    : never

/** The path parameters of a route, each required. */
export type ApiRouteParams<N extends ApiRouteName> = {
  [K in ParamNames<ApiRoutePattern<N>>]: string | number
}

/** No second argument for routes without parameters; the parameters object otherwise. */
type ParamsArgument<N extends ApiRouteName> = [ParamNames<ApiRoutePattern<N>>] extends [never]
  ? []
  : [params: ApiRouteParams<N>]

/** The path of the API route `name` with its parameters filled in (relative to the site). */
export function apiUrl<N extends ApiRouteName>(name: N, ...args: ParamsArgument<N>): string {
  const params = (args[0] ?? {}) as Record<string, string | number>
  return apiRoutes[name].replace(/:([^/]+)/g, (_, key: string) =>
    encodeURIComponent(String(params[key]))
  )
}
