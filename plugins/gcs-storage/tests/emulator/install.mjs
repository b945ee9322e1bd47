/**
 * Test-only install of the Cloud Storage emulator: firebase-tools (about
 * 320 MB, so never a dependency of the app) pinned to FIREBASE_TOOLS_VERSION,
 * installed once into node_modules/.cache/tern-gcs-emulator and reused.
 * `node plugins/gcs-storage/tests/emulator/install.mjs` prints the package
 * folder; the gcs-storage tests run it themselves when the package is missing
 * (a CI job may run it as its own step to cache the folder). Needs only the
 * npm registry. Concurrent runs wait for each other (a lock folder).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The exact firebase-tools version the tests run. */
export const FIREBASE_TOOLS_VERSION = '15.34.2'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
/** Where firebase-tools is installed. */
export const CACHE_DIR =
  process.env.TERN_GCS_EMULATOR_CACHE || join(root, 'node_modules', '.cache', 'tern-gcs-emulator')
const packageDir = join(CACHE_DIR, 'node_modules', 'firebase-tools')

function installedVersion() {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Installs firebase-tools when missing or of another version; returns its folder. */
export function ensureFirebaseTools() {
  if (installedVersion() === FIREBASE_TOOLS_VERSION) return packageDir
  mkdirSync(CACHE_DIR, { recursive: true })
  const lock = join(CACHE_DIR, '.install-lock')
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // Another run installs; a lock older than 15 minutes is stale.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000)
          rmSync(lock, { recursive: true, force: true })
      } catch {}
      sleep(1000)
      if (installedVersion() === FIREBASE_TOOLS_VERSION) return packageDir
    }
  }
  try {
    if (installedVersion() === FIREBASE_TOOLS_VERSION) return packageDir
    // Its own package.json, so npm never touches the app's.
    writeFileSync(
      join(CACHE_DIR, 'package.json'),
      '{ "private": true, "name": "tern-gcs-emulator" }\n'
    )
    console.error(
      `tern: installing firebase-tools@${FIREBASE_TOOLS_VERSION} for the GCS emulator tests (once) into ${CACHE_DIR}`
    )
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const result = spawnSync(
      npm,
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        '--prefix',
        CACHE_DIR,
        `firebase-tools@${FIREBASE_TOOLS_VERSION}`,
      ],
      {
        cwd: CACHE_DIR,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, npm_config_workspaces: 'false' },
      }
    )
    if (result.status !== 0 || installedVersion() !== FIREBASE_TOOLS_VERSION) {
      throw new Error(
        `npm install firebase-tools@${FIREBASE_TOOLS_VERSION} failed (exit ${result.status})`
      )
    }
    return packageDir
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(ensureFirebaseTools())
}
