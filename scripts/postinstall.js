/**
 * After `npm install`: checks that the project's Node 24 (node_modules/.bin/node,
 * first on PATH inside npm scripts) is there and that the native SQLite driver
 * loads on it. Prints one line either way; never downloads anything.
 */
import { createRequire } from 'node:module'

const major = Number(process.versions.node.split('.')[0])
if (major < 24) {
  console.error(`tern: expected Node.js 24 from node_modules/.bin/node, found ${process.version}`)
  process.exit(1)
}
try {
  const Database = createRequire(import.meta.url)('better-sqlite3')
  new Database(':memory:').close()
  console.log(`tern: Node.js ${process.version} and the SQLite driver are ready`)
} catch (error) {
  console.error(
    `tern: the SQLite driver does not load on Node.js ${process.version}: ${error.message}`
  )
  process.exit(1)
}
