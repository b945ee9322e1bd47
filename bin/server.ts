/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
|
| TERN_WORKERS=1: this process boots the app and serves HTTP, as before.
| More: this process is the cluster's primary (start/cluster.ts), which
| boots no app; each worker it forks runs this file again and serves HTTP
| on the same port. Imports are dynamic so the primary loads only what it
| needs.
|
*/
import cluster from 'node:cluster'
import { prepareWorker, runPrimary } from '#start/cluster'
import { prepareEnvironment } from '#start/prepare'

/** Boots the app and serves HTTP in this process (a worker, or the single process). */
async function serve() {
  await import('reflect-metadata')
  const { prettyPrintError } = await import('@adonisjs/core')
  const { createIgnitor } = await import('#start/ignitor')
  if (cluster.isWorker) prepareWorker()
  await createIgnitor(new URL('../', import.meta.url))
    .httpServer()
    .start()
    .catch(async (error) => {
      process.exitCode = 1
      await prettyPrintError(error)
      // A worker that cannot start exits, so the primary sees it (and gives up when all do).
      if (cluster.isWorker) process.exit(1)
    })
}

async function main() {
  if (cluster.isWorker) return serve()
  let env: (typeof import('#start/env'))['default']
  try {
    // Once, before any worker: DATA_DIR and the generated APP_KEY, then the whole environment validated.
    prepareEnvironment()
    env = (await import('#start/env')).default
  } catch {
    // Reported by the app's own start, as before (same message, exit code 1).
    return serve()
  }
  const count = env.get('TERN_WORKERS')
  if (count === 1) return serve()
  const { Logger } = await import('@adonisjs/core/logger')
  runPrimary(count, new Logger({ name: 'tern', enabled: true, level: env.get('LOG_LEVEL') ?? 'info' }))
}

void main()
