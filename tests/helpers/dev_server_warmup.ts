/**
 * Brings the Vite dev server up to speed before the first browser test of a
 * run. The dev server transforms a module when a page first asks for it, so
 * the first page of a run waited for all of the shell's and its own modules,
 * and for their server rendering: on a loaded machine that took over
 * Playwright's 30 s, and whichever test came first failed its `goto` (a spec
 * file run alone hit it in 3 of 12 runs under load). Here every module of
 * the pages and the admin panel is transformed for the browser, and the
 * shell is rendered once on the server, before any test starts.
 */
import { readdirSync } from 'node:fs'
import app from '@adonisjs/core/services/app'

/**
 * The modules the browser loads: every script under inertia/ except the
 * server-rendering entry, which imports server-only packages (react-dom/server,
 * lru-cache): transformed for the browser, they would make the dependency
 * optimizer bundle them and reload every open page.
 */
function browserModules(): string[] {
  const root = app.makePath('inertia')
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && file !== 'ssr.tsx')
    .sort()
    .map((file) => `/inertia/${file}`)
}

/** See the module comment. `baseUrl` is the running test server's. */
export async function warmUpDevServer(baseUrl: string): Promise<void> {
  const vite = await app.container.make('vite')
  const server = vite.getDevServer()
  if (!server) return
  for (const url of browserModules()) await server.environments.client.warmupRequest(url)
  // Server rendering of the shell (and the sign-in page, where visitors are often sent).
  for (const path of ['/', '/auth/signIn'])
    await (await fetch(new URL(path, baseUrl))).arrayBuffer()
}
