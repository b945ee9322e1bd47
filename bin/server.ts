/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
*/
import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from '#start/ignitor'

createIgnitor(new URL('../', import.meta.url))
  .httpServer()
  .start()
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
