/**
 * Builds Tern the way `node ace build` does, into a folder outside the work
 * tree, for bench/pages: the server code through tsc (same tsconfig, as
 * bench/transfer does) and the browser and server-rendering bundles through
 * Vite (same vite.config.ts, NODE_ENV=production), written to
 * `<out>/public/assets` (manifest in `.vite/`, SSR bundle in `server/`)
 * where config/vite.ts makes the production server look for them.
 *
 *   node_modules/.bin/node bench/pages/build.js <out>   # a build to reuse with BENCH_BUILD_DIR=<out>
 *
 * The Vite step runs in a child process (this file with `--vite <out>`) so
 * that NODE_ENV=production is set before Vite and its plugins load.
 */
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SELF = fileURLToPath(import.meta.url)

/** Builds into `out` (created); throws with the tool's output when a step fails. Returns `out`. */
export function buildTern(out) {
  const tsc = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.json'),
      '--outDir',
      out,
      '--noEmit',
      'false',
      '--declaration',
      'false',
      '--sourceMap',
      'false',
      '--incremental',
      'false',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 600_000 }
  )
  if (!existsSync(join(out, 'bin/server.js')))
    throw new Error(`the server build (tsc) failed:\n${tsc.stdout}\n${tsc.stderr}`)
  writeFileSync(join(out, 'package.json'), readFileSync(join(ROOT, 'package.json')))
  writeFileSync(join(out, 'ace.js'), "await import('./bin/console.js')\n")
  for (const name of ['node_modules', 'resources']) symlinkSync(join(ROOT, name), join(out, name))
  // public/ is a real folder here: the repository's files linked in, the built assets beside them.
  mkdirSync(join(out, 'public'), { recursive: true })
  for (const entry of readdirSync(join(ROOT, 'public'))) {
    if (entry !== 'assets') symlinkSync(join(ROOT, 'public', entry), join(out, 'public', entry))
  }
  const vite = spawnSync(process.execPath, [SELF, '--vite', out], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: 900_000,
  })
  const manifest = join(out, 'public/assets/.vite/manifest.json')
  const ssrManifest = join(out, 'public/assets/server/.vite/manifest.json')
  if (vite.status !== 0 || !existsSync(manifest) || !existsSync(ssrManifest)) {
    throw new Error(`the asset build (vite) failed:\n${vite.stdout}\n${vite.stderr}`)
  }
  return out
}

/** The Vite step: client and SSR environments of vite.config.ts, written under `<out>/public/assets`. */
async function viteBuild(out) {
  const { createBuilder } = await import('vite')
  const assets = join(out, 'public/assets')
  const builder = await createBuilder(
    {
      root: ROOT,
      logLevel: 'warn',
      build: { outDir: assets },
      environments: { ssr: { build: { outDir: join(assets, 'server') } } },
    },
    false
  )
  await builder.buildApp()
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  if (process.argv[2] === '--vite') {
    await viteBuild(resolve(process.argv[3]))
  } else if (process.argv[2]) {
    const out = resolve(process.argv[2])
    if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty`)
    buildTern(out)
    console.log(`built into ${out}`)
  } else {
    console.error('usage: node bench/pages/build.js <output folder>')
    process.exit(1)
  }
}
