/*
|--------------------------------------------------------------------------
| Ace entry point
|--------------------------------------------------------------------------
*/
import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from '#start/ignitor'

createIgnitor(new URL('../', import.meta.url))
  .ace()
  .handle(process.argv.splice(2))
  .catch(prettyPrintError)
