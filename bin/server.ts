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
| A start that fails (start/start_failure.ts) ends the process with exit
| code 1 and one line, at once: a server left running without listening
| would never be restarted by its supervisor.
|
*/
import cluster from 'node:cluster'
import { prepareWorker, runPrimary } from '#start/cluster'
import { prepareEnvironment } from '#start/prepare'
import { exitStartFailed, printStartFailure, startFailureLine } from '#start/start_failure'

/** How long a failed single process waits for the app to close what it opened before it exits anyway. */
const TERMINATE_GRACE_MS = 500

/**
 * Ends a process whose start failed. A worker hands the line to the primary
 * (which prints it once for all workers) and exits; a single process
 * prints it, lets the app close its connections for a moment and exits 1.
 */
async function failStart(error: unknown, app?: { terminate(): Promise<void> }) {
  process.exitCode = 1
  const line = startFailureLine(error)
  if (cluster.isWorker) return exitStartFailed(line, error)
  printStartFailure(line, error)
  const grace = new Promise((resolve) => setTimeout(resolve, TERMINATE_GRACE_MS).unref())
  await Promise.race([app?.terminate().catch(() => {}), grace])
  process.exit(1)
}

/** Boots the app and serves HTTP in this process (a worker, or the single process). */
async function serve() {
  if (cluster.isWorker) prepareWorker()
  let ignitor: import('@adonisjs/core').Ignitor | undefined
  try {
    await import('reflect-metadata')
    const { createIgnitor } = await import('#start/ignitor')
    ignitor = createIgnitor(new URL('../', import.meta.url))
    await ignitor.httpServer().start()
  } catch (error) {
    await failStart(error, ignitor?.getApp())
  }
}

async function main() {
  if (cluster.isWorker) return serve()
  let env: (typeof import('#start/env'))['default']
  try {
    // Once, before any worker: DATA_DIR and the generated APP_KEY, then the whole environment validated.
    prepareEnvironment()
    const envModule = await import('#start/env')
    env = envModule.default
  } catch (error) {
    return failStart(error)
  }
  const count = env.get('TERN_WORKERS')
  if (count === 1) return serve()
  const { Logger } = await import('@adonisjs/core/logger')
  runPrimary(
    count,
    new Logger({ name: 'tern', enabled: true, level: env.get('LOG_LEVEL') ?? 'info' })
  )
}

void main()
