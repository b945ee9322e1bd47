/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
|
| Started by an older Node.js, it re-runs itself on the project's Node 24
| (node_modules/.bin/node) or stops with a one-line explanation.
|
*/
import { ensureNode24 } from './scripts/node_version.js'

ensureNode24()

await import('@poppinss/ts-exec')
await import('./bin/console.ts')
