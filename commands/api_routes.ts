import { writeFile, readFile } from 'node:fs/promises'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/** The generated file, relative to the application root. */
export const API_ROUTES_FILE = 'inertia/lib/api_routes.generated.ts'

/** A route as `router.toJSON()` describes it. */
interface RouteJson {
  name?: string
  pattern: string
  methods: string[]
}

/**
 * The source of inertia/lib/api_routes.generated.ts for these routes: every
 * named `/api/*` route, name → path pattern. Written in the
 * project's Prettier style, so the file stays `prettier --check` clean.
 */
export function apiRoutesSource(routes: RouteJson[]): string {
  const lines = routes
    .filter((route) => route.name && route.pattern.startsWith('/api/'))
    .sort((a, b) => a.name!.localeCompare(b.name!))
    .map((route) => {
      const one = `  '${route.name}': '${route.pattern}',`
      return one.length <= 100 ? one : `  '${route.name}':\n    '${route.pattern}',`
    })
  return [
    '/**',
    ' * The API routes the browser calls, by name: generated from start/routes/*.ts by',
    ' * `node ace tern:api-routes` (which `npm run typecheck` runs first). Do not edit:',
    ' * rename or change a route there and run the command; code built on these names',
    ' * (inertia/lib/api.ts, `apiUrl`) then fails the typecheck where it no longer fits.',
    ' */',
    'export const apiRoutes = {',
    ...lines,
    '} as const',
    '',
  ].join('\n')
}

/**
 * `node ace tern:api-routes`: writes inertia/lib/api_routes.generated.ts from
 * the application's routes. `--check` only tells whether the file is current.
 */
export default class ApiRoutes extends BaseCommand {
  static commandName = 'tern:api-routes'
  static description = 'Generate the typed table of API routes the browser code calls'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({ description: 'Fail when the file is not current, without writing it' })
  declare check: boolean

  async run() {
    const router = await this.app.container.make('router')
    router.commit()
    const routes = Object.values(router.toJSON()).flat() as RouteJson[]
    const source = apiRoutesSource(routes)
    const path = this.app.makePath(API_ROUTES_FILE)
    const current = await readFile(path, 'utf8').catch(() => null)
    if (current === source) return
    if (this.check) {
      this.logger.error(`${API_ROUTES_FILE} is not current: run node ace tern:api-routes`)
      this.exitCode = 1
      return
    }
    await writeFile(path, source)
    this.logger.success(`${API_ROUTES_FILE} written`)
  }
}
