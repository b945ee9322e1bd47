/**
 * `npm test`: the whole test suite (unit, functional, browser) on the database
 * chosen by DB_CONNECTION (sqlite by default; mysql / pg use the local servers).
 * Installs Debian's Chromium (browser tests) and slapd (LDAP tests) when they
 * are missing (needs root); never downloads a browser build of its own.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ensureNode24 } from './node_version.js'

ensureNode24()

const root = fileURLToPath(new URL('../', import.meta.url))
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const SLAPD = process.env.SLAPD_PATH || '/usr/sbin/slapd'

/**
 * Debian packages the tests need: Chromium (browser tests) and OpenLDAP's
 * slapd (the LDAP plugin's tests start their own server; ldap-utils helps
 * when debugging one).
 */
const missing = [
  [CHROMIUM, ['chromium']],
  [SLAPD, ['slapd', 'ldap-utils']],
].filter(([binary]) => !existsSync(binary))

if (missing.length > 0) {
  const packages = missing.flatMap(([, names]) => names)
  if (process.getuid?.() !== 0) {
    console.error(
      `tern: ${missing.map(([binary]) => binary).join(', ')} missing; install Debian's packages (apt-get install -y ${packages.join(' ')})`
    )
    process.exit(1)
  }
  console.log(`tern: installing Debian ${packages.join(', ')} for the tests…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0) process.exit(result.status ?? 1)
  }
}

const result = spawnSync(process.execPath, ['ace', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
})
process.exit(result.status ?? 1)
