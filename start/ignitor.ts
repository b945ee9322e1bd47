/*
|--------------------------------------------------------------------------
| Ignitor
|--------------------------------------------------------------------------
|
| The application's ignitor as every entry point (bin/server.ts,
| bin/console.ts, bin/test.ts) starts it: environment prepared, files
| imported relative to the app root, env validated while booting, and
| terminated on SIGTERM (and SIGINT under pm2).
|
*/
import { Ignitor } from '@adonisjs/core'
import { prepareEnvironment } from '#start/prepare'

/**
 * Prepares the environment (DATA_DIR, APP_KEY, UTC) and returns the
 * application's ignitor for `appRoot`; the caller picks the process kind
 * (`.httpServer()`, `.ace()`, `.testRunner()`).
 */
export function createIgnitor(appRoot: URL): Ignitor {
  prepareEnvironment()
  const importer = (filePath: string) => {
    if (filePath.startsWith('./') || filePath.startsWith('../')) {
      return import(new URL(filePath, appRoot).href)
    }
    return import(filePath)
  }
  return new Ignitor(appRoot, { importer }).tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
}
