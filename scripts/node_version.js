/**
 * Tern runs on Node.js 24. The project brings it through the `node` package of the npm
 * registry (node_modules/.bin/node). This module makes any entry point started by an older
 * Node re-run itself on that binary, or stop with a one-line explanation.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const REQUIRED_MAJOR = 24
export const projectNode = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url))

/**
 * Returns when the running Node is recent enough. Otherwise re-executes the current command
 * with the project's Node 24 and exits with its status, or exits 1 with an explanation.
 */
export function ensureNode24() {
  const major = Number(process.versions.node.split('.')[0])
  if (major >= REQUIRED_MAJOR) return
  if (existsSync(projectNode) && !process.env.TERN_NODE_REEXEC) {
    const result = spawnSync(projectNode, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, TERN_NODE_REEXEC: '1' },
    })
    process.exit(result.status ?? 1)
  }
  console.error(
    `Tern needs Node.js ${REQUIRED_MAJOR} or newer (this is ${process.version}); run "npm install" to bring it into node_modules/.bin/node.`
  )
  process.exit(1)
}
