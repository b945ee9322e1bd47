/*
|--------------------------------------------------------------------------
| Environment preparation
|--------------------------------------------------------------------------
|
| Runs before the environment is validated: resolves DATA_DIR, creates it,
| and makes sure an APP_KEY exists. When APP_KEY is not set, a key is
| generated once into DATA_DIR/app_key (mode 0600) and reused on every start,
| so a fresh install needs no secret in the repository or the shell.
|
*/
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { Settings } from 'luxon'

/**
 * Resolves DATA_DIR (default `./data`, relative to the working directory) to an
 * absolute path, creates it, writes it back to `process.env.DATA_DIR` and
 * ensures `process.env.APP_KEY` is set. Throws an error naming the variable
 * when the directory cannot be created or the key file cannot be read.
 */
export function prepareEnvironment() {
  /**
   * Dates are stored and compared in UTC on every database; a server whose
   * local zone is not UTC must not shift them (mysql2 reads DATETIME as UTC).
   */
  process.env.TZ = 'UTC'
  Settings.defaultZone = 'utc'

  const configured = process.env.DATA_DIR || './data'
  const dataDir = isAbsolute(configured) ? configured : resolve(process.cwd(), configured)
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    throw new Error(`DATA_DIR: cannot create "${dataDir}" (${(error as Error).message})`)
  }
  process.env.DATA_DIR = dataDir
  process.env.PORT ??= '3000'
  process.env.HOST ??= '0.0.0.0'

  if (!process.env.APP_KEY) {
    const keyFile = join(dataDir, 'app_key')
    if (existsSync(keyFile)) {
      process.env.APP_KEY = readFileSync(keyFile, 'utf8').trim()
    } else {
      const key = randomBytes(32).toString('base64url')
      writeFileSync(keyFile, key + '\n', { mode: 0o600 })
      process.env.APP_KEY = key
    }
  }
}
