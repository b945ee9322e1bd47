/**
 * `npm start`: builds Tern when the sources changed since the last build, applies
 * pending database migrations, then serves it (http://localhost:3000 by default).
 * SQLite and local storage under DATA_DIR (default ./data): no other service needed.
 * Migrations run through `ace tern:migrate`, which waits for any other instance
 * migrating the same database, so instances started together all come up;
 * MIGRATE_ON_START=false skips them (migrations run as a separate step).
 * The server serves with TERN_WORKERS HTTP workers (default: one per core, at
 * most 8; start/cluster.ts); signals are passed on to it, it stops them all.
 */
import { spawnSync, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNode24 } from './node_version.js'
import { migrateOnStart } from './start_options.js'
import { SERVER_NODE_FLAGS } from './server_flags.js'

ensureNode24()

const root = fileURLToPath(new URL('../', import.meta.url))
const buildDir = join(root, 'build')
const stamp = join(buildDir, '.tern-build-stamp')
const SOURCES = ['app', 'bin', 'commands', 'config', 'database', 'inertia', 'plugins', 'providers', 'resources', 'start', 'public']
const ROOT_FILES = ['adonisrc.ts', 'vite.config.ts', 'package.json', 'tsconfig.json']

/** Newest modification time among the application's sources. */
function newestSource() {
  let newest = 0
  const walk = (path) => {
    let stats
    try {
      stats = statSync(path)
    } catch {
      return
    }
    if (stats.isDirectory()) {
      if (path.endsWith('node_modules') || path.endsWith('tests')) return
      for (const entry of readdirSync(path)) walk(join(path, entry))
    } else {
      newest = Math.max(newest, stats.mtimeMs)
    }
  }
  for (const dir of SOURCES) walk(join(root, dir))
  for (const file of ROOT_FILES) walk(join(root, file))
  return newest
}

function run(args, options = {}) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, ...options })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: resolve(process.cwd(), process.env.DATA_DIR || './data'),
}

/** Checked before the build, so a wrong value fails at once. */
let migrate
try {
  migrate = migrateOnStart(env)
} catch (error) {
  console.error(`tern: ${error.message}`)
  process.exit(1)
}

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestSource()) {
  console.log('tern: building (first start or sources changed)…')
  run(['ace', 'build'])
  writeFileSync(stamp, new Date().toISOString())
}

if (migrate) run([join(buildDir, 'ace.js'), 'tern:migrate'], { env, cwd: buildDir })
else console.log('tern: MIGRATE_ON_START=false, migrations skipped (run `node ace tern:migrate` as its own step)')

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(buildDir, 'bin/server.js')], {
  stdio: 'inherit',
  cwd: buildDir,
  env,
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
