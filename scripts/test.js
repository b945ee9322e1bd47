/**
 * `npm test`: the whole test suite (unit, functional, browser) on the database
 * chosen by DB_CONNECTION (sqlite by default; mysql / pg use the local servers).
 * Installs Debian's Chromium for the browser tests when it is missing (needs root);
 * never downloads a browser build of its own.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ensureNode24 } from './node_version.js'

ensureNode24()

const root = fileURLToPath(new URL('../', import.meta.url))
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`tern: ${CHROMIUM} is missing; install Debian's chromium package (apt-get install -y chromium)`)
    process.exit(1)
  }
  console.log('tern: installing Debian chromium for the browser tests…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0) process.exit(result.status ?? 1)
  }
}

const result = spawnSync(process.execPath, ['ace', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
})
process.exit(result.status ?? 1)
