/**
 * `npm start`: builds Tern when no build of the current sources exists,
 * applies pending database migrations, then serves it (http://localhost:3000
 * by default). SQLite and local storage under DATA_DIR (default ./data): no
 * other service needed.
 * Builds live in `builds/<fingerprint of the sources>/` (scripts/builds.js):
 * a build goes to a fresh folder renamed when complete, so instances already
 * running from the same checkout keep their files while a new version is
 * built beside them, and generated files (database/schema.ts, rewritten by
 * `node ace migration:run`) never cause a rebuild. Builds no process runs
 * any more are removed.
 * Migrations run through `ace tern:migrate`, which waits for any other
 * instance migrating the same database, so instances started together all
 * come up; MIGRATE_ON_START=false skips them (migrations run as a separate
 * step).
 * The server serves with TERN_WORKERS HTTP workers (start/cluster.ts);
 * signals are passed on to it, it stops them all.
 */
import { spawnSync, spawn } from 'node:child_process'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNode24 } from './node_version.js'
import { migrateOnStart } from './start_options.js'
import { SERVER_NODE_FLAGS } from './server_flags.js'
import { buildsOf, sourceFingerprint } from './builds.js'

ensureNode24()

const root = fileURLToPath(new URL('../', import.meta.url))

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

const builds = buildsOf(root)
const id = sourceFingerprint(root)
try {
  builds.ensure(
    id,
    (outDir, tsconfig) => {
      console.log(
        `tern: building ${relative(root, builds.dir(id))} (first start or sources changed)…`
      )
      const result = spawnSync(
        process.execPath,
        ['ace', 'build', '--tsconfig', relative(root, tsconfig)],
        {
          stdio: 'inherit',
          cwd: root,
        }
      )
      if (result.status !== 0)
        throw new Error(`the build failed (exit code ${result.status ?? result.signal})`)
    },
    (pid) => console.log(`tern: waiting for the build another npm start (pid ${pid}) is making…`)
  )
  // Recorded before anything runs from it, so no other npm start removes it meanwhile.
  builds.use(id, process.pid)
  process.on('exit', () => builds.release(id, process.pid))
} catch (error) {
  console.error(`tern: ${error.message}`)
  process.exit(1)
}
const buildDir = builds.dir(id)
const removed = builds.prune(id)
if (removed.length > 0) console.log(`tern: removed builds no process runs: ${removed.join(', ')}`)

// `npm start -- --build-only`: prepares the build of an upgrade while the running instance serves.
if (process.argv.includes('--build-only')) {
  console.log(`tern: ${relative(root, buildDir)} is ready`)
  process.exit(0)
}

if (migrate) run([join(buildDir, 'ace.js'), 'tern:migrate'], { env, cwd: buildDir })
else
  console.log(
    'tern: MIGRATE_ON_START=false, migrations skipped (run `node ace tern:migrate` as its own step)'
  )

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(buildDir, 'bin/server.js')], {
  stdio: 'inherit',
  cwd: buildDir,
  env,
})
// The server's pid too: should this process be killed, the server keeps its build.
if (server.pid) builds.use(id, server.pid)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => {
  builds.release(id, server.pid)
  process.exit(code ?? 0)
})
