/**
 * Transfer benchmark (design.md §5, issue 4): Tern against a baseline plain
 * Node HTTP server, in one run, on loopback.
 *
 *   node_modules/.bin/node bench/transfer/run.js            # 1 GiB
 *   BENCH_SIZE_MB=64 node_modules/.bin/node bench/transfer/run.js
 *
 * It starts Tern from the sources (SQLite, local disk, a temporary DATA_DIR,
 * NODE_ENV=production, LOG_LEVEL=warn) and the baseline (a child process
 * running this same file with BENCH_ROLE=baseline: it streams each request
 * body to disk at the offset given and streams files back, nothing else),
 * generates a random file, uploads it to both the same way (first chunk,
 * then the other chunks BENCH_PARALLEL at a time, each written at its
 * offset), downloads it from both into files, verifies the SHA-256 of
 * every download, and prints the throughput of each, the ratios
 * Tern/baseline and Tern's peak RSS (VmHWM of its process). Every transfer
 * runs BENCH_RUNS times, alternating baseline and Tern; the median counts.
 * Temporary files are removed at the end (also on failure or Ctrl-C); the
 * whole run stops after BENCH_TIMEOUT_S seconds.
 *
 * Environment (all optional):
 *   BENCH_SIZE_MB    size of the file in MiB (default 1024)
 *   BENCH_CHUNK_MB   chunk size in MB of 10^6 bytes (default 10: Tern's default share.chunkSize)
 *   BENCH_PARALLEL   chunks in flight at once (default 4)
 *   BENCH_RUNS       runs of each transfer (default 5)
 *   BENCH_TIMEOUT_S  overall time limit (default 900)
 *   BENCH_TMP        where temporary files go (default the OS temp folder)
 *   BENCH_JSON       a path: also write the results there as JSON
 *   BENCH_FROM_SOURCE=1  run Tern's TypeScript sources through @poppinss/ts-exec instead of building
 *   BENCH_BUILD_DIR  a folder holding a build made by an earlier run (skips the tsc step; for profiling)
 *   BENCH_TERN_NODE_ARGS extra node options for Tern (profiling: "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
import { createHash, randomFillSync } from 'node:crypto'
import { fork, spawn, spawnSync } from 'node:child_process'
import { constants, createReadStream, createWriteStream, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, open, rm, stat, unlink, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { SERVER_NODE_FLAGS } from '../../scripts/server_flags.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const MiB = 1024 * 1024

if (process.env.BENCH_ROLE === 'baseline') {
  runBaselineServer(process.env.BENCH_BASELINE_DIR)
} else {
  await main()
}

/* ------------------------------------------------------------------------ */
/* Baseline server                                                          */
/* ------------------------------------------------------------------------ */

/**
 * The baseline: plain `node:http`, no framework, no database. POST
 * /upload?name=&offset= streams the body into the file at `offset`
 * (created when missing, never truncated); GET /files/<name> streams the file.
 */
function runBaselineServer(dir) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://baseline')
      if (req.method === 'POST' && url.pathname === '/upload') {
        const name = basename(url.searchParams.get('name') ?? '')
        const offset = Number(url.searchParams.get('offset') ?? 0)
        const flags = constants.O_RDWR | constants.O_CREAT
        await pipeline(req, createWriteStream(join(dir, name), { flags, mode: 0o600, start: offset }))
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}')
      } else if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
        const path = join(dir, basename(url.pathname))
        const { size } = await stat(path)
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size })
        await pipeline(createReadStream(path), res)
      } else {
        res.writeHead(404).end()
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error))
      else res.destroy()
    }
  })
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
  process.on('disconnect', () => process.exit(0))
}

/* ------------------------------------------------------------------------ */
/* Client and orchestration                                                 */
/* ------------------------------------------------------------------------ */

function envNumber(name, fallback) {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}

async function main() {
  const settings = {
    sizeBytes: Math.round(envNumber('BENCH_SIZE_MB', 1024) * MiB),
    chunkSize: Math.round(envNumber('BENCH_CHUNK_MB', 10) * 1_000_000),
    parallel: Math.round(envNumber('BENCH_PARALLEL', 4)),
    runs: Math.round(envNumber('BENCH_RUNS', 5)),
    timeoutSeconds: envNumber('BENCH_TIMEOUT_S', 900),
  }
  const work = await mkdtemp(join(process.env.BENCH_TMP || tmpdir(), 'tern-bench-'))
  const children = []
  let finished = false
  const cleanup = async () => {
    if (finished) return
    finished = true
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit', 5000) : null)))
    await rm(work, { recursive: true, force: true })
  }
  const timer = setTimeout(async () => {
    console.error(`bench: time limit of ${settings.timeoutSeconds} s reached, stopping`)
    await cleanup()
    process.exit(2)
  }, settings.timeoutSeconds * 1000)
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      await cleanup()
      process.exit(130)
    })
  }

  try {
    const results = await benchmark(settings, work, children)
    print(settings, results)
    if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify({ settings, ...results }, null, 2))
  } finally {
    clearTimeout(timer)
    await cleanup()
  }
}

async function benchmark(settings, work, children) {
  const { sizeBytes, chunkSize, parallel, runs } = settings
  const input = join(work, 'input.bin')
  const baselineDir = join(work, 'baseline')
  const dataDir = join(work, 'tern-data')
  await mkdir(baselineDir, { recursive: true })

  log(`generating ${format(sizeBytes)} of random data…`)
  const checksum = await generateFile(input, sizeBytes)

  log('starting the baseline server…')
  const baseline = await startBaseline(baselineDir, children)
  log(process.env.BENCH_FROM_SOURCE === '1' ? 'starting Tern from the sources…' : 'building Tern (tsc, as `node ace build`) and starting it…')
  const tern = await startTern(work, dataDir, children)
  const idleRss = procStatus(tern.pid).VmRSS

  const admin = await prepareTern(tern.url, sizeBytes, chunkSize)
  // A fresh keep-alive agent per round: chunks of one upload reuse connections (as browsers do),
  // and no idle connection is reused after a pause (the server may close it at that moment).
  let agent
  const newAgent = () => {
    agent?.destroy()
    agent = new http.Agent({ keepAlive: true, maxSockets: parallel + 2 })
  }
  const download = join(work, 'download.bin')

  /** One baseline round trip of the first `size` bytes; resolves to [upload ms, download ms]. */
  const baselineRound = async (name, size, expected) => {
    newAgent()
    let cpu = cpuSeconds(baseline.pid)
    let started = performance.now()
    await sendChunks(size, chunkSize, parallel, async (index, start, length) => {
      const response = await request(agent, `${baseline.url}/upload?name=${name}&offset=${start}`, {
        method: 'POST',
        body: { path: input, start, length },
      })
      expectStatus(response, 201, `baseline chunk ${index}`)
    })
    const upload = performance.now() - started
    const uploadCpu = cpuSeconds(baseline.pid) - cpu
    cpu = cpuSeconds(baseline.pid)
    started = performance.now()
    await downloadTo(agent, `${baseline.url}/files/${name}`, {}, download)
    const downloaded = performance.now() - started
    const downloadCpu = cpuSeconds(baseline.pid) - cpu
    agent.destroy()
    if (expected) await verify(download, expected, 'baseline download')
    await unlink(download)
    await unlink(join(baselineDir, name))
    return [upload, downloaded, uploadCpu, downloadCpu]
  }

  /**
   * One Tern round trip of the first `size` bytes: create a share, chunks
   * through the chunk API, complete (all timed as the upload), then a share
   * token and the download (timed), then the share is deleted.
   */
  const ternRound = async (shareId, size, expected) => {
    newAgent()
    const chunks = Math.max(1, Math.ceil(size / chunkSize))
    let cpu = cpuSeconds(tern.pid)
    let started = performance.now()
    const created = await request(agent, `${tern.url}/api/shares`, {
      method: 'POST',
      headers: { cookie: admin.cookie },
      json: { id: shareId, expiration: 'never' },
    })
    expectStatus(created, 201, 'create share')
    let fileId
    await sendChunks(size, chunkSize, parallel, async (index, start, length) => {
      const query = new URLSearchParams({ name: 'bench.bin', chunkIndex: String(index), totalChunks: String(chunks) })
      if (index > 0) query.set('id', fileId)
      const response = await request(agent, `${tern.url}/api/shares/${shareId}/files?${query}`, {
        method: 'POST',
        headers: { cookie: admin.cookie, 'content-type': 'application/octet-stream' },
        body: { path: input, start, length },
      })
      expectStatus(response, 201, `Tern chunk ${index}`)
      if (index === 0) fileId = JSON.parse(response.body).id
    })
    const completed = await request(agent, `${tern.url}/api/shares/${shareId}/complete`, {
      method: 'POST',
      headers: { cookie: admin.cookie },
    })
    expectStatus(completed, 202, 'complete share')
    const upload = performance.now() - started
    const uploadCpu = cpuSeconds(tern.pid) - cpu

    const token = await request(agent, `${tern.url}/api/shares/${shareId}/token`, { method: 'POST', json: {} })
    expectStatus(token, 200, 'share token')
    const tokenCookie = cookiesOf(token).find((cookie) => cookie.startsWith(`share_${shareId}_token=`))
    cpu = cpuSeconds(tern.pid)
    started = performance.now()
    await downloadTo(agent, `${tern.url}/api/shares/${shareId}/files/${fileId}`, { cookie: tokenCookie }, download)
    const downloaded = performance.now() - started
    const downloadCpu = cpuSeconds(tern.pid) - cpu
    if (expected) await verify(download, expected, 'Tern download')
    await unlink(download)
    newAgent()
    const removed = await request(agent, `${tern.url}/api/shares/${shareId}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie },
    })
    expectStatus(removed, 200, 'delete share')
    return [upload, downloaded, uploadCpu, downloadCpu]
  }

  // Warm-up (not timed): the first requests load code lazily and warm the JIT, on both servers.
  log('warm-up')
  const warmSize = Math.min(sizeBytes, 3 * chunkSize)
  for (let round = 0; round < 2; round++) {
    await baselineRound(`warm-${round}.bin`, warmSize)
    await ternRound(`bench-warm-${round}-${Date.now().toString(36)}`, warmSize)
  }

  const timings = { baselineUpload: [], ternUpload: [], baselineDownload: [], ternDownload: [] }
  const cpu = { baselineUpload: [], ternUpload: [], baselineDownload: [], ternDownload: [] }
  for (let run = 1; run <= runs; run++) {
    log(`run ${run}/${runs}`)
    const [baselineUp, baselineDown, baselineUpCpu, baselineDownCpu] = await baselineRound(`file-${run}.bin`, sizeBytes, checksum)
    const [ternUp, ternDown, ternUpCpu, ternDownCpu] = await ternRound(`bench-${run}-${Date.now().toString(36)}`, sizeBytes, checksum)
    timings.baselineUpload.push(baselineUp)
    timings.baselineDownload.push(baselineDown)
    timings.ternUpload.push(ternUp)
    timings.ternDownload.push(ternDown)
    cpu.baselineUpload.push(baselineUpCpu)
    cpu.baselineDownload.push(baselineDownCpu)
    cpu.ternUpload.push(ternUpCpu)
    cpu.ternDownload.push(ternDownCpu)
  }
  agent?.destroy()

  const status = procStatus(tern.pid)
  return {
    node: process.version,
    medianMs: Object.fromEntries(Object.entries(timings).map(([key, values]) => [key, median(values)])),
    timingsMs: timings,
    serverCpuSeconds: cpu,
    medianCpuSeconds: Object.fromEntries(Object.entries(cpu).map(([key, values]) => [key, median(values)])),
    ternPeakRssBytes: status.VmHWM,
    ternIdleRssBytes: idleRss,
    baselinePeakRssBytes: procStatus(baseline.pid).VmHWM,
  }
}

function print(settings, results) {
  const { sizeBytes } = settings
  const rate = (ms) => sizeBytes / MiB / (ms / 1000)
  const m = results.medianMs
  const upload = { baseline: rate(m.baselineUpload), tern: rate(m.ternUpload) }
  const download = { baseline: rate(m.baselineDownload), tern: rate(m.ternDownload) }
  const uploadRatio = upload.tern / upload.baseline
  const downloadRatio = download.tern / download.baseline
  const rss = results.ternPeakRssBytes
  const check = (ok) => (ok ? 'ok' : 'MISSED')
  results.ratios = { upload: uploadRatio, download: downloadRatio }
  results.throughputMiBs = { upload, download }
  console.log('')
  console.log(
    `Transfer benchmark: ${format(sizeBytes)}, chunks of ${settings.chunkSize.toLocaleString('en')} bytes, ` +
      `${settings.parallel} in parallel, median of ${settings.runs} run(s), Node ${results.node}`
  )
  console.log('')
  console.log('              baseline        Tern   Tern/baseline  target')
  console.log(
    `upload    ${fmt(upload.baseline)} MiB/s ${fmt(upload.tern)} MiB/s ${uploadRatio.toFixed(2).padStart(9)}     >= 0.70 ${check(uploadRatio >= 0.7)}`
  )
  console.log(
    `download  ${fmt(download.baseline)} MiB/s ${fmt(download.tern)} MiB/s ${downloadRatio.toFixed(2).padStart(9)}     >= 0.90 ${check(downloadRatio >= 0.9)}`
  )
  console.log('')
  console.log(
    `Tern peak RSS (VmHWM): ${(rss / MiB).toFixed(0)} MiB (target < 300 MiB: ${check(rss < 300 * MiB)}); ` +
      `after start ${(results.ternIdleRssBytes / MiB).toFixed(0)} MiB; baseline peak ${(results.baselinePeakRssBytes / MiB).toFixed(0)} MiB`
  )
  const c = results.medianCpuSeconds
  console.log(
    `server CPU (median, s): upload baseline ${c.baselineUpload.toFixed(2)} / Tern ${c.ternUpload.toFixed(2)}, ` +
      `download baseline ${c.baselineDownload.toFixed(2)} / Tern ${c.ternDownload.toFixed(2)}`
  )
  const all = (list) => list.map((ms) => `${(ms / 1000).toFixed(2)}s`).join(' ')
  const t = results.timingsMs
  console.log(
    `runs: baseline up ${all(t.baselineUpload)} | Tern up ${all(t.ternUpload)} | baseline down ${all(t.baselineDownload)} | Tern down ${all(t.ternDownload)}`
  )
}

function fmt(value) {
  return value.toFixed(1).padStart(8)
}

/* ------------------------------------------------------------------------ */
/* Servers                                                                  */
/* ------------------------------------------------------------------------ */

async function startBaseline(dir, children) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_ROLE: 'baseline', BENCH_BASELINE_DIR: dir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  children.push(child)
  const message = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`baseline server exited (${code})`)))
  })
  return { pid: child.pid, url: `http://127.0.0.1:${message.port}` }
}

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Compiles Tern's server code the way `node ace build` does (tsc, same
 * tsconfig) into `<work>/build`, with package.json, ace.js and links to
 * node_modules, resources and public: the JavaScript a production install
 * runs. (Running the TypeScript sources through a loader instead keeps the
 * transpiler and its source maps in the process: about 80 MB more RSS.)
 */
function buildTern(work) {
  const out = join(work, 'build')
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json'), '--outDir', out,
      '--noEmit', 'false', '--declaration', 'false', '--sourceMap', 'false', '--incremental', 'false'],
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }
  )
  if (!existsSync(join(out, 'bin/server.js'))) throw new Error(`the build failed:\n${tsc.stdout}\n${tsc.stderr}`)
  writeFileSync(join(out, 'package.json'), readFileSync(join(ROOT, 'package.json')))
  writeFileSync(join(out, 'ace.js'), "await import('./bin/console.js')\n")
  for (const name of ['node_modules', 'resources', 'public']) symlinkSync(join(ROOT, name), join(out, name))
  return out
}

/**
 * Tern with NODE_ENV=production, LOG_LEVEL=warn, SQLite and the local disk
 * in a fresh DATA_DIR, after running the migrations: from the build of
 * `buildTern`, or from the sources with BENCH_FROM_SOURCE=1.
 */
async function startTern(work, dataDir, children) {
  const port = await freePort()
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    DB_CONNECTION: 'sqlite',
    TERN_PLUGINS: 'local-storage',
  }
  delete env.BENCH_ROLE
  const fromSource = process.env.BENCH_FROM_SOURCE === '1'
  const prebuilt = process.env.BENCH_BUILD_DIR
  const cwd = fromSource ? ROOT : prebuilt && existsSync(join(prebuilt, 'bin/server.js')) ? prebuilt : buildTern(work)
  const migrate = spawnSync(process.execPath, ['ace.js', 'migration:run', '--force'], { cwd, env, encoding: 'utf8', timeout: 120_000 })
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`)
  const extra = (process.env.BENCH_TERN_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const args = [...SERVER_NODE_FLAGS, ...extra, ...(fromSource ? ['--import=@poppinss/ts-exec', 'bin/server.ts'] : ['bin/server.js'])]
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] })
  children.push(child)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Tern exited (${child.exitCode}) before answering`)
    try {
      const response = await request(undefined, `${url}/api/health`, {})
      if (response.status === 200) break
    } catch {}
    if (Date.now() > deadline) throw new Error('Tern did not answer /api/health within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { pid: child.pid, url, fromSource }
}

/** Signs up the first user (the admin) and raises share.maxSize (and sets share.chunkSize) through the admin API. */
async function prepareTern(url, sizeBytes, chunkSize) {
  const signUp = await request(undefined, `${url}/api/auth/signUp`, {
    method: 'POST',
    json: { email: 'bench@example.com', username: 'bench', password: 'bench-password-1' },
  })
  expectStatus(signUp, 201, 'sign up')
  const cookie = cookiesOf(signUp).join('; ')
  const config = await request(undefined, `${url}/api/configs/admin`, {
    method: 'PATCH',
    headers: { cookie },
    json: [
      { key: 'share.maxSize', value: sizeBytes * 2 },
      { key: 'share.chunkSize', value: chunkSize },
    ],
  })
  expectStatus(config, 200, 'admin config update')
  return { cookie }
}

/* ------------------------------------------------------------------------ */
/* HTTP and files                                                           */
/* ------------------------------------------------------------------------ */

/**
 * One request. `json` sends JSON; `body: {path, start, length}` streams
 * that slice of a file. Resolves to {status, headers, body (text)}.
 */
function request(agent, url, { method = 'GET', headers = {}, json, body } = {}) {
  return new Promise((resolve, reject) => {
    const allHeaders = { ...headers }
    let payload
    if (json !== undefined) {
      payload = Buffer.from(JSON.stringify(json))
      allHeaders['content-type'] = 'application/json'
      allHeaders['content-length'] = payload.length
    } else if (body) {
      allHeaders['content-length'] = body.length
    }
    const req = http.request(url, { method, headers: allHeaders, agent }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body) {
      const source =
        body.length === 0
          ? null
          : createReadStream(body.path, { start: body.start, end: body.start + body.length - 1, highWaterMark: MiB })
      if (source) pipeline(source, req).catch(reject)
      else req.end()
    } else {
      req.end(payload)
    }
  })
}

/** Streams a GET into `path`. */
function downloadTo(agent, url, headers, path) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers, agent }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        return reject(new Error(`GET ${url}: ${res.statusCode}`))
      }
      pipeline(res, createWriteStream(path)).then(resolve, reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Chunk 0 first (it creates the file), then the others `parallel` at a time. */
async function sendChunks(size, chunkSize, parallel, send) {
  const total = Math.max(1, Math.ceil(size / chunkSize))
  const slice = (index) => [index, index * chunkSize, Math.min(chunkSize, size - index * chunkSize)]
  await send(...slice(0))
  let next = 1
  const worker = async () => {
    while (next < total) {
      const index = next++
      await send(...slice(index))
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, total - 1) }, worker))
}

function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${response.body.slice(0, 300)}`)
}

function cookiesOf(response) {
  return [response.headers['set-cookie'] ?? []].flat().map((line) => line.split(';')[0])
}

/** Writes `size` random bytes to `path`; resolves to their SHA-256. */
async function generateFile(path, size) {
  const hash = createHash('sha256')
  const handle = await open(path, 'w')
  const buffer = Buffer.alloc(4 * MiB)
  try {
    for (let written = 0; written < size; ) {
      const length = Math.min(buffer.length, size - written)
      randomFillSync(buffer, 0, length)
      const piece = buffer.subarray(0, length)
      hash.update(piece)
      await handle.write(piece, 0, length)
      written += length
    }
  } finally {
    await handle.close()
  }
  return hash.digest('hex')
}

async function verify(path, expected, what) {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path, { highWaterMark: 4 * MiB }), hash)
  const actual = hash.digest('hex')
  if (actual !== expected) throw new Error(`${what}: SHA-256 ${actual} differs from the source's ${expected}`)
}

/** CPU seconds (user + system) the process `pid` used so far (/proc/<pid>/stat). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Fields of /proc/<pid>/status in bytes (VmRSS, VmHWM…). */
function procStatus(pid) {
  const fields = {}
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const match = /^(\w+):\s+(\d+) kB$/.exec(line)
    if (match) fields[match[1]] = Number(match[2]) * 1024
  }
  return fields
}

/* ------------------------------------------------------------------------ */

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function format(bytes) {
  return bytes >= 1024 * MiB ? `${(bytes / 1024 / MiB).toFixed(2)} GiB` : `${(bytes / MiB).toFixed(0)} MiB`
}

function log(message) {
  console.log(`bench: ${message}`)
}

function once(emitter, event, timeoutMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs)
    emitter.once(event, () => {
      clearTimeout(timer)
      resolve()
    })
  })
}
