/**
 * The builds `npm start` runs (scripts/start.js), one folder per version of
 * the sources: `builds/<fingerprint>/`.
 *
 * Why not `build/`: `ace build` first deletes its output folder, so building
 * into the folder a server runs from pulled the compiled files out from under
 * it (every lazily loaded controller then answered 500 "Cannot find module").
 * So each build goes to a fresh folder (`builds/<id>.tmp-<pid>`, through a
 * tsconfig naming it as outDir) and is renamed to `builds/<id>` when
 * complete: the rename is atomic, so a folder named by its fingerprint is
 * always a whole build, and is never written again. A server runs from the
 * folder of its sources' version until it stops; a later `npm start` with
 * other sources builds and runs another folder beside it. A folder is
 * removed only when no process of it is alive: every `npm start` records its
 * own pid and its server's in `builds/<id>/.tern-pids/` while it runs.
 * Refusing to build while an instance runs was the other choice: it would
 * make an upgrade of a running instance a stop-build-start, with the site
 * down for the build; building beside it keeps it serving.
 *
 * The fingerprint is a hash of the sources' paths and contents: the
 * application's folders and root files, without what git ignores (generated
 * files: database/schema.ts, which `node ace migration:run` rewrites,
 * .adonisjs/, public/assets/, ...; see .gitignore) and without tests. So a
 * generated file, or a touched but unchanged one, never causes a rebuild;
 * any real change (or a deleted file) does.
 *
 * The container image (Containerfile) is built once with `node ace build`
 * into `build/` and never rebuilds itself; this is for running from a clone.
 *
 * Two `npm start` needing the same build wait for each other (a lock file
 * holding its owner's pid, taken over when that process is gone); the same
 * lock, held briefly, orders recording a pid against removing old builds.
 */
import { createHash } from 'node:crypto'
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, join, relative } from 'node:path'
import ignore from 'ignore'

/** The application's sources (folders and root files) the build is made of; tests are left out. */
export const SOURCES = [
  'app',
  'bin',
  'commands',
  'config',
  'database',
  'inertia',
  'plugins',
  'providers',
  'public',
  'resources',
  'start',
  'types',
]
export const ROOT_FILES = [
  'adonisrc.ts',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
]

/** Folder, below the application root, holding the builds `npm start` runs. */
export const BUILDS_DIR = 'builds'
const PIDS = '.tern-pids'
const LOCK = '.lock'
const BUILD_LOCK = '.build.lock'

/**
 * What the root .gitignore leaves out, as a test on a path relative to the
 * root (`/`-separated), with git's own pattern rules (the `ignore` package).
 */
function ignoredBy(root) {
  let patterns = ''
  try {
    patterns = readFileSync(join(root, '.gitignore'), 'utf8')
  } catch {}
  const rules = ignore().add(patterns)
  return (path, isDirectory) => rules.ignores(isDirectory ? `${path}/` : path)
}

/**
 * The fingerprint of the sources under `root` (16 hex digits; see the module
 * comment).
 */
export function sourceFingerprint(root) {
  const ignored = ignoredBy(root)
  const hash = createHash('sha256')
  const walk = (path) => {
    const name = relative(root, path).split('\\').join('/')
    let stats
    try {
      stats = statSync(path)
    } catch {
      return
    }
    if (stats.isDirectory()) {
      if (ignored(name, true) || name.endsWith('/tests') || name === 'tests') return
      for (const entry of readdirSync(path).sort()) walk(join(path, entry))
    } else if (stats.isFile() && !ignored(name, false)) {
      const content = readFileSync(path)
      hash.update(`${name}\0${content.length}\0`).update(content)
    }
  }
  for (const entry of [...SOURCES, ...ROOT_FILES].sort()) walk(join(root, entry))
  return hash.digest('hex').slice(0, 16)
}

/** Whether process `pid` is alive (one of another user counts as alive). */
function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** The pid a lock file names, 0 when it is gone. */
function lockOwner(path) {
  try {
    return Number(readFileSync(path, 'utf8').trim()) || 0
  } catch {
    return 0
  }
}

/**
 * Runs `work` holding the lock file `path`, which names its owner's pid: it
 * is written whole to a file of this process, then hard-linked to `path`
 * (atomic, and refused when `path` exists), so a lock never lacks its pid.
 * A lock whose owner is gone is taken over. `onWait` is called once when
 * another live process holds it.
 */
export function withLock(path, work, onWait = () => {}) {
  const mine = `${path}.${process.pid}`
  writeFileSync(mine, String(process.pid))
  let waited = false
  try {
    for (;;) {
      try {
        linkSync(mine, path)
        break
      } catch (error) {
        if (error.code !== 'EEXIST') throw error
        const owner = lockOwner(path)
        if (owner && !alive(owner)) {
          // Taken over only if it is still the dead owner's (another process may have done it first).
          if (lockOwner(path) === owner) rmSync(path, { force: true })
          continue
        }
        if (!waited && owner) onWait(owner)
        waited = true
        sleep(100)
      }
    }
  } finally {
    rmSync(mine, { force: true })
  }
  try {
    return work()
  } finally {
    rmSync(path, { force: true })
  }
}

/** The pids recorded as running from build folder `dir` that are still alive. */
function livePids(dir) {
  let entries = []
  try {
    entries = readdirSync(join(dir, PIDS))
  } catch {}
  return entries.map(Number).filter((pid) => pid > 0 && alive(pid))
}

/** A temporary entry of a build in progress: `<id>.tmp-<pid>` (folder) or `<id>.tmp-<pid>.tsconfig.json`. */
const TEMPORARY = /\.tmp-(\d+)(\.tsconfig\.json)?$/

/**
 * The builds of `root`: `dir(id)`, whether one is complete, building one,
 * taking one into use, and removing the unused ones.
 */
export function buildsOf(root) {
  const builds = join(root, BUILDS_DIR)
  const lock = join(builds, LOCK)
  const dir = (id) => join(builds, id)
  const has = (id) => existsSync(join(dir(id), 'bin/server.js'))
  return {
    builds,
    dir,
    has,
    /**
     * Builds `id` unless it is there, waiting for another process building at
     * the same time (one build at a time: they share the checkout's Vite
     * output). `build(outDir, tsconfig)` writes the build into the fresh
     * folder `outDir`, compiling through `tsconfig` (the root one with that
     * outDir); the folder is renamed to `dir(id)` once complete. Throws when
     * `build` does (its folder is removed). Returns whether it built.
     */
    ensure(id, build, onWait) {
      mkdirSync(builds, { recursive: true })
      if (has(id)) return false
      return withLock(
        join(builds, BUILD_LOCK),
        () => {
          if (has(id)) return false
          const partial = `${dir(id)}.tmp-${process.pid}`
          const tsconfig = `${partial}.tsconfig.json`
          rmSync(partial, { recursive: true, force: true })
          // Paths relative to this file (get-tsconfig mangles an absolute outDir).
          const config = {
            extends: '../tsconfig.json',
            compilerOptions: { outDir: `./${basename(partial)}` },
          }
          writeFileSync(tsconfig, JSON.stringify(config, null, 2))
          try {
            build(partial, tsconfig)
            if (!existsSync(join(partial, 'bin/server.js')))
              throw new Error('the build produced no bin/server.js')
            renameSync(partial, dir(id))
          } finally {
            rmSync(partial, { recursive: true, force: true })
            rmSync(tsconfig, { force: true })
          }
          return true
        },
        onWait
      )
    },
    /** Records `pid` as running from build `id` (under the lock, so a removal never races it). */
    use(id, pid) {
      withLock(lock, () => {
        if (!has(id)) throw new Error(`build ${id} was removed before it could start`)
        mkdirSync(join(dir(id), PIDS), { recursive: true })
        writeFileSync(join(dir(id), PIDS, String(pid)), '')
      })
    },
    /** Forgets `pid` (the process stopped). */
    release(id, pid) {
      rmSync(join(dir(id), PIDS, String(pid)), { force: true })
    },
    /**
     * Removes every build other than `keep` that no live process runs, and
     * what builds whose process died left behind. Returns the removed names.
     */
    prune(keep) {
      const removed = []
      withLock(lock, () => {
        for (const name of readdirSync(builds)) {
          if (name === keep || name.startsWith('.')) continue
          const temporary = TEMPORARY.exec(name)
          const unused = temporary
            ? !alive(Number(temporary[1]))
            : livePids(join(builds, name)).length === 0
          if (!unused) continue
          rmSync(join(builds, name), { recursive: true, force: true })
          removed.push(name)
        }
      })
      return removed
    },
  }
}
