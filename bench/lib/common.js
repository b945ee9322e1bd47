/**
 * What every benchmark in bench/ needs: a temporary work folder removed at
 * the end (also after a failure, Ctrl-C or the time limit) together with the
 * child processes it started, environment numbers, a free loopback port,
 * Tern started for a measurement, and the /proc readings of a server's CPU
 * and memory (summed over its process tree).
 */
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVER_NODE_FLAGS } from '../../scripts/server_flags.js'

/**
 * Starts Tern from `cwd` (a build, or the sources with `entry` bin/server.ts
 * and the ts-exec loader in `nodeArgs`) as a production install runs:
 * NODE_ENV=production, LOG_LEVEL=warn, SQLite and the local disk in
 * `dataDir`, after the migrations, on a free loopback port; `env` adds
 * variables, `nodeArgs` Node options (after the server flags and
 * BENCH_TERN_NODE_ARGS). Pushes the child to `children` and resolves once
 * /api/health answers 200 (60 s at most) to `{ pid, child, url }`.
 */
export async function startTernServer({
  cwd,
  dataDir,
  children,
  env = {},
  nodeArgs = [],
  entry = 'bin/server.js',
}) {
  const port = await freePort()
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    DB_CONNECTION: 'sqlite',
    TERN_PLUGINS: 'local-storage',
    ...env,
  }
  delete childEnv.BENCH_ROLE
  const migrate = spawnSync(process.execPath, ['ace.js', 'migration:run', '--force'], {
    cwd,
    env: childEnv,
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (migrate.status !== 0)
    throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`)
  const extra = (process.env.BENCH_TERN_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const args = [...SERVER_NODE_FLAGS, ...extra, ...nodeArgs, entry]
  const child = spawn(process.execPath, args, {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  children.push(child)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Tern exited (${child.exitCode}) before answering`)
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) break
    } catch {}
    if (Date.now() > deadline) throw new Error('Tern did not answer /api/health within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { pid: child.pid, child, url }
}

/**
 * Runs `fn(work, children)` in a new folder under BENCH_TMP (or the OS temp
 * folder) named `prefix`*; children pushed to `children` are stopped and the
 * folder removed when `fn` ends, on SIGINT/SIGTERM, or after `timeoutSeconds`.
 */
export async function withWorkDir(prefix, timeoutSeconds, fn) {
  const work = await mkdtemp(join(process.env.BENCH_TMP || tmpdir(), prefix))
  const children = []
  let finished = false
  const cleanup = async () => {
    if (finished) return
    finished = true
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    await Promise.all(
      children.map((child) => (child.exitCode === null ? once(child, 'exit', 5000) : null))
    )
    await rm(work, { recursive: true, force: true })
  }
  const timer = setTimeout(async () => {
    console.error(`bench: time limit of ${timeoutSeconds} s reached, stopping`)
    await cleanup()
    process.exit(2)
  }, timeoutSeconds * 1000)
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      await cleanup()
      process.exit(130)
    })
  }
  try {
    return await fn(work, children)
  } finally {
    clearTimeout(timer)
    await cleanup()
  }
}

/** The number in env variable `name` (else `fallback`): positive, or with `zero` also 0. */
export function envNumber(name, fallback, { zero = false } = {}) {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zero)) {
    throw new Error(`${name} must be a ${zero ? 'non-negative' : 'positive'} number`)
  }
  return value
}

/** A TCP port free on 127.0.0.1 now. */
export async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resolves when `emitter` emits `event`, or after `timeoutMs` in any case. */
export function once(emitter, event, timeoutMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs)
    emitter.once(event, () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Throws naming `what` unless the answer has `status`. */
export function expectStatus(response, status, what) {
  if (response.status !== status)
    throw new Error(
      `${what}: expected ${status}, got ${response.status} ${String(response.body).slice(0, 300)}`
    )
}

/** The `name=value` pairs of an answer's Set-Cookie headers. */
export function cookiesOf(response) {
  return [response.headers['set-cookie'] ?? []].flat().map((line) => line.split(';')[0])
}

/** CPU seconds (user + system) process `pid` has used. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * `pid` and its descendants (Tern with TERN_WORKERS > 1 is a primary and its
 * HTTP workers), from /proc/<pid>/task/<tid>/children; a process that exits
 * meanwhile is left out.
 */
export function processTree(pid) {
  const pids = [pid]
  for (let index = 0; index < pids.length; index++) {
    let tasks = []
    try {
      tasks = readdirSync(`/proc/${pids[index]}/task`)
    } catch {
      continue
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(
          `/proc/${pids[index]}/task/${task}/children`,
          'utf8'
        ).split(' ')) {
          if (child.trim()) pids.push(Number(child))
        }
      } catch {}
    }
  }
  return pids
}

/**
 * CPU seconds (user + system) of the process tree of `pid`: each live
 * process' own time plus that of the children it reaped (a worker that died
 * and was restarted still counts).
 */
export function treeCpuSeconds(pid) {
  let total = 0
  for (const each of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1].split(' ')
      total +=
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100
    } catch {}
  }
  return total
}

/**
 * Memory of the process tree of `pid`: `rssBytes` the sum of VmRSS now,
 * `peakRssBytes` the sum of each process' VmHWM (an upper bound of the tree's
 * peak: the processes need not have peaked at the same moment), and
 * `processes` one entry per process ({pid, role: primary|worker|process,
 * rssBytes, peakRssBytes}).
 */
export function treeMemory(pid) {
  const pids = processTree(pid)
  const processes = []
  for (const each of pids) {
    try {
      const status = procStatus(each)
      const role = pids.length === 1 ? 'process' : each === pid ? 'primary' : 'worker'
      processes.push({ pid: each, role, rssBytes: status.VmRSS, peakRssBytes: status.VmHWM })
    } catch {}
  }
  const sum = (key) => processes.reduce((total, entry) => total + (entry[key] ?? 0), 0)
  return { rssBytes: sum('rssBytes'), peakRssBytes: sum('peakRssBytes'), processes }
}

/** One line about `treeMemory(pid)`'s processes when there are several ("primary 60 MiB, worker 150 MiB, …"), else ''. */
export function describeTree(memory, key = 'peakRssBytes') {
  if (memory.processes.length < 2) return ''
  return memory.processes
    .map((entry) => `${entry.role} ${(entry[key] / 1024 / 1024).toFixed(0)} MiB`)
    .join(', ')
}

/** The kB fields of /proc/<pid>/status (VmRSS, VmHWM...) in bytes. */
export function procStatus(pid) {
  const fields = {}
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const match = /^(\w+):\s+(\d+) kB$/.exec(line)
    if (match) fields[match[1]] = Number(match[2]) * 1024
  }
  return fields
}
