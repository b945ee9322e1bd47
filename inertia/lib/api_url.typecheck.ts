/**
 * Checked by `npm run typecheck` only (nothing imports it): the calls below
 * must not compile. Each `@ts-expect-error` fails the typecheck if its error
 * disappears, so this file proves that a route renamed or removed in
 * start/routes/*.ts, or a path parameter renamed there, breaks the browser
 * code that calls it (see ./api_url.ts).
 */
import { apiUrl } from './api_url.js'

export function wrongCallsFailTheTypecheck() {
  return [
    // A route name that does not exist (a renamed route's old name).
    // @ts-expect-error: unknown route name
    apiUrl('shares.missing'),
    // A route with a parameter called without it.
    // @ts-expect-error: the `id` parameter is missing
    apiUrl('shares.show'),
    // A parameter under another name (a renamed `:id`).
    // @ts-expect-error: the route has `:id`, not `:shareId`
    apiUrl('shares.show', { shareId: 'x' }),
    // One of two parameters missing.
    // @ts-expect-error: `fileId` is missing
    apiUrl('shares.files.download', { id: 'x' }),
    // Parameters given to a route that has none.
    // @ts-expect-error: `/api/shares` has no parameter
    apiUrl('shares.index', { id: 'x' }),
    // And the right calls compile.
    apiUrl('shares.index'),
    apiUrl('shares.files.download', { id: 'x', fileId: 'y' }),
  ]
}
