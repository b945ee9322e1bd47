/**
 * Transfer benchmark (bench/README.md): Tern against plain Node
 * HTTP baselines, in one run, on loopback.
 *
 *   node_modules/.bin/node bench/transfer/run.js            # 1 GiB
 *   BENCH_SIZE_MB=64 BENCH_RUNS=1 node_modules/.bin/node bench/transfer/run.js
 *   BENCH_CONCURRENT=20 node_modules/.bin/node bench/transfer/run.js   # 20 uploads of 100 MiB at once
 *   BENCH_PROFILE=1 BENCH_RUNS=1 node_modules/.bin/node bench/transfer/run.js   # + where Tern's upload time goes
 *
 * It builds and starts Tern (SQLite, local disk, a temporary DATA_DIR,
 * NODE_ENV=production, LOG_LEVEL=warn) and the baseline (a child process
 * running this same file with BENCH_ROLE=baseline: plain node:http, no
 * framework, no database), generates a random file and, BENCH_RUNS times,
 * alternating:
 *  - one-PUT baseline: the whole file in ONE streamed PUT, written with 1 MiB
 *    buffers, then one GET streaming it back with 1 MiB reads: what a user
 *    could have instead of Tern;
 *  - same-schedule baseline: the chunks Tern gets, each POSTed to its offset
 *    (Node's default stream buffers), then one GET: the cost of the server
 *    without the cost of the protocol;
 *  - Tern: create a share, upload through the chunk API (chunk 0 first, then
 *    BENCH_PARALLEL at a time), complete it, download it.
 * Every download's SHA-256 is checked. It prints the median throughputs, the
 * ratios with PASS/MISS against the targets, Tern's peak RSS, the server CPU
 * seconds and the database statements per chunk (counted inside Tern by
 * count_queries.cjs, loaded with --require; no product code changes).
 *
 * BENCH_CONCURRENT=<n> runs the concurrency mode instead: n uploads of
 * BENCH_CONCURRENT_MB at once, through Tern's chunk API (each on its own
 * connections, the same schedule as above) against n concurrent PUTs to the
 * baseline; aggregate throughput and Tern's peak RSS.
 *
 * BENCH_PROFILE=1 runs Tern with --cpu-prof and prints the top self-time
 * functions and packages of Tern's timed upload phases (cpu_profile.js).
 *
 * Temporary files are removed at the end (also on failure or Ctrl-C); the
 * whole run stops after BENCH_TIMEOUT_S seconds.
 *
 * Environment (all optional):
 *   BENCH_SIZE_MB    size of the file in MiB (default 1024; 10240 for the 10 GiB case)
 *   BENCH_CHUNK_MB   chunk size in MB of 10^6 bytes (default 10: Tern's default share.chunkSize)
 *   BENCH_PARALLEL   chunks in flight at once per upload (default 4)
 *   BENCH_RUNS       runs of each transfer (default 5)
 *   BENCH_CONCURRENT uploads at once (concurrency mode; default 0 = off)
 *   BENCH_CONCURRENT_MB size of each concurrent upload in MiB (default 100)
 *   BENCH_PROFILE=1  CPU profile of Tern (--cpu-prof into the temporary folder)
 *   BENCH_PROFILE_OUT a name: also copy the profile to bench/transfer/profiles/<name>.cpuprofile
 *   BENCH_COUNT_QUERIES=0|1 count Tern's database statements (default 1, 0 with BENCH_PROFILE=1)
 *   BENCH_TIMEOUT_S  overall time limit (default 900)
 *   BENCH_TMP        where temporary files go (default the OS temp folder)
 *   BENCH_JSON       a path: also write the results there as JSON
 *   BENCH_FROM_SOURCE=1  run Tern's TypeScript sources through @poppinss/ts-exec instead of building
 *   BENCH_BUILD_DIR  a folder for the build: reused when it holds one, else built there and kept
 *   BENCH_TERN_NODE_ARGS extra node options for Tern (e.g. --trace-gc)
 */
import { createHash, randomFillSync } from 'node:crypto'
import { fork, spawnSync } from 'node:child_process'
import {
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { copyFile, mkdir, open, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import {
  cookiesOf,
  describeTree,
  envNumber,
  expectStatus,
  once,
  processTree,
  procStatus,
  startTernServer,
  treeCpuSeconds,
  treeMemory,
  withWorkDir,
} from '../lib/common.js'
import { printSummary, summarizeProfile } from './cpu_profile.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const MiB = 1024 * 1024

/** Targets of the performance work and, for the same-schedule baseline, the first transfer targets (bench/README.md). */
const TARGETS = {
  upload: 0.85,
  download: 0.95,
  peakRssMiB: 200,
  sameScheduleUpload: 0.7,
  sameScheduleDownload: 0.9,
  concurrent: 0.8,
  concurrentPeakRssMiB: 300,
}

if (process.env.BENCH_ROLE === 'baseline') {
  runBaselineServer(process.env.BENCH_BASELINE_DIR)
} else {
  await main()
}

/* ------------------------------------------------------------------------ */
/* Baseline server                                                          */
/* ------------------------------------------------------------------------ */

/**
 * The baseline: plain `node:http`, no framework, no database.
 * - PUT /put/<name>: the whole body streamed into the file, 1 MiB write buffer
 *   (highWaterMark); GET /stream/<name> streams it back with 1 MiB reads. The
 *   one-request server a user could run instead of Tern.
 * - POST /upload?name=&offset=: the body streamed into the file at `offset`
 *   (created when missing, never truncated), Node's default buffers; GET
 *   /files/<name> streams the file back (64 KiB reads). Receives Tern's chunk schedule.
 */
function runBaselineServer(dir) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://baseline')
      if (req.method === 'PUT' && url.pathname.startsWith('/put/')) {
        const path = join(dir, basename(url.pathname))
        await pipeline(req, createWriteStream(path, { mode: 0o600, highWaterMark: MiB }))
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}')
      } else if (req.method === 'POST' && url.pathname === '/upload') {
        const name = basename(url.searchParams.get('name') ?? '')
        const offset = Number(url.searchParams.get('offset') ?? 0)
        const flags = constants.O_RDWR | constants.O_CREAT
        await pipeline(
          req,
          createWriteStream(join(dir, name), { flags, mode: 0o600, start: offset })
        )
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}')
      } else if (
        req.method === 'GET' &&
        (url.pathname.startsWith('/files/') || url.pathname.startsWith('/stream/'))
      ) {
        const path = join(dir, basename(url.pathname))
        const { size } = await stat(path)
        const highWaterMark = url.pathname.startsWith('/stream/') ? MiB : undefined
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size })
        await pipeline(createReadStream(path, { highWaterMark }), res)
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

async function main() {
  const concurrent = Math.round(envNumber('BENCH_CONCURRENT', 0, { zero: true }))
  const settings = {
    mode: concurrent > 0 ? 'concurrent' : 'single',
    sizeBytes: Math.round(envNumber('BENCH_SIZE_MB', 1024) * MiB),
    chunkSize: Math.round(envNumber('BENCH_CHUNK_MB', 10) * 1_000_000),
    parallel: Math.round(envNumber('BENCH_PARALLEL', 4)),
    runs: Math.round(envNumber('BENCH_RUNS', 5)),
    concurrent,
    concurrentBytes: Math.round(envNumber('BENCH_CONCURRENT_MB', 100) * MiB),
    profile: process.env.BENCH_PROFILE === '1',
    // Off by default under the profiler: its wrappers would show in the profile.
    countQueries:
      (process.env.BENCH_COUNT_QUERIES ?? (process.env.BENCH_PROFILE === '1' ? '0' : '1')) !== '0',
    timeoutSeconds: envNumber('BENCH_TIMEOUT_S', 900),
  }
  await withWorkDir('tern-bench-', settings.timeoutSeconds, async (work, children) => {
    const servers = await startServers(settings, work, children)
    const results =
      settings.mode === 'concurrent'
        ? await benchmarkConcurrent(settings, work, servers)
        : await benchmark(settings, work, servers)
    if (settings.mode === 'concurrent') printConcurrent(settings, results)
    else print(settings, results)
    if (settings.profile) {
      results.profile = await profileSummary(servers.tern, results.profileWindows)
      printSummary(results.profile, 15, "Tern's upload phases, CPU profile")
      results.profile.functions = results.profile.functions.slice(0, 50)
      results.profile.packages = results.profile.packages.slice(0, 50)
    }
    if (process.env.BENCH_JSON)
      await writeFile(process.env.BENCH_JSON, JSON.stringify({ settings, ...results }, null, 2))
  })
}

/** Generates the input, starts both servers and prepares Tern (admin, limits). */
async function startServers(settings, work, children) {
  const size = settings.mode === 'concurrent' ? settings.concurrentBytes : settings.sizeBytes
  const input = join(work, 'input.bin')
  const baselineDir = join(work, 'baseline')
  await mkdir(baselineDir, { recursive: true })

  log(`generating ${format(size)} of random data…`)
  const checksum = await generateFile(input, size)

  log('starting the baseline server…')
  const baseline = await startBaseline(baselineDir, children)
  log(
    process.env.BENCH_FROM_SOURCE === '1'
      ? 'starting Tern from the sources…'
      : 'building Tern (tsc, as `node ace build`) and starting it…'
  )
  const tern = await startTern(settings, work, join(work, 'tern-data'), children)
  tern.idleRss = treeMemory(tern.pid).rssBytes
  tern.admin = await prepareTern(tern.url, size, settings.chunkSize)
  return { input, checksum, size, baseline, baselineDir, tern }
}

/** Client operations on both servers, each on the keep-alive `agent` given. */
function clientFor(settings, work, { input, baseline, baselineDir, tern }) {
  const { chunkSize, parallel } = settings

  /** The first `size` bytes of the input in one streamed PUT. */
  const putOnce = async (agent, name, size) => {
    const response = await request(agent, `${baseline.url}/put/${name}`, {
      method: 'PUT',
      body: { path: input, start: 0, length: size },
    })
    expectStatus(response, 201, `baseline PUT ${name}`)
  }

  /** The first `size` bytes of the input in Tern's chunk schedule, each chunk POSTed to its offset. */
  const postChunks = (agent, name, size) =>
    sendChunks(size, chunkSize, parallel, async (index, start, length) => {
      const response = await request(agent, `${baseline.url}/upload?name=${name}&offset=${start}`, {
        method: 'POST',
        body: { path: input, start, length },
      })
      expectStatus(response, 201, `baseline chunk ${index}`)
    })

  /** Creates a share, uploads the first `size` bytes through the chunk API, completes it; resolves to the file id. */
  const ternUpload = async (agent, shareId, size) => {
    const chunks = Math.max(1, Math.ceil(size / chunkSize))
    const created = await request(agent, `${tern.url}/api/shares`, {
      method: 'POST',
      headers: { cookie: tern.admin.cookie },
      json: { id: shareId, expiration: 'never' },
    })
    expectStatus(created, 201, 'create share')
    let fileId
    await sendChunks(size, chunkSize, parallel, async (index, start, length) => {
      const query = new URLSearchParams({
        name: 'bench.bin',
        chunkIndex: String(index),
        totalChunks: String(chunks),
      })
      if (index > 0) query.set('id', fileId)
      const response = await request(agent, `${tern.url}/api/shares/${shareId}/files?${query}`, {
        method: 'POST',
        headers: { 'cookie': tern.admin.cookie, 'content-type': 'application/octet-stream' },
        body: { path: input, start, length },
      })
      expectStatus(response, 201, `Tern chunk ${index}`)
      if (index === 0) fileId = JSON.parse(response.body).id
    })
    const completed = await request(agent, `${tern.url}/api/shares/${shareId}/complete`, {
      method: 'POST',
      headers: { cookie: tern.admin.cookie },
    })
    expectStatus(completed, 202, 'complete share')
    return fileId
  }

  /** The cookie that lets a visitor download the share. */
  const ternToken = async (agent, shareId) => {
    const token = await request(agent, `${tern.url}/api/shares/${shareId}/token`, {
      method: 'POST',
      json: {},
    })
    expectStatus(token, 200, 'share token')
    return cookiesOf(token).find((cookie) => cookie.startsWith(`share_${shareId}_token=`))
  }

  const ternDelete = async (agent, shareId) => {
    const removed = await request(agent, `${tern.url}/api/shares/${shareId}`, {
      method: 'DELETE',
      headers: { cookie: tern.admin.cookie },
    })
    expectStatus(removed, 200, 'delete share')
  }

  const removeBaselineFile = (name) => unlink(join(baselineDir, name))

  return {
    putOnce,
    postChunks,
    ternUpload,
    ternToken,
    ternDelete,
    removeBaselineFile,
    download: join(work, 'download.bin'),
  }
}

/** A fresh keep-alive agent: chunks of one upload reuse connections (as browsers do). */
function newAgent(sockets) {
  return new http.Agent({ keepAlive: true, maxSockets: sockets })
}

/** Runs `fn` and resolves to [its result, wall ms, server CPU seconds of `pid`'s process tree]. */
async function measured(pid, fn) {
  const cpu = treeCpuSeconds(pid)
  const started = performance.now()
  const result = await fn()
  return [result, performance.now() - started, treeCpuSeconds(pid) - cpu]
}

async function benchmark(settings, work, servers) {
  const { sizeBytes, parallel, runs } = settings
  const { baseline, tern, checksum } = servers
  const client = clientFor(settings, work, servers)
  const { download } = client
  const profileWindows = []
  let queries

  /** One-PUT baseline: the file in one PUT, back in one GET (1 MiB buffers); resolves to [up ms, down ms, up CPU, down CPU]. */
  const onePutRound = async (name, size, expected) => {
    const agent = newAgent(2)
    const [, up, upCpu] = await measured(baseline.pid, () => client.putOnce(agent, name, size))
    const [, down, downCpu] = await measured(baseline.pid, () =>
      downloadTo(agent, `${baseline.url}/stream/${name}`, {}, download)
    )
    agent.destroy()
    if (expected) await verify(download, expected, 'one-PUT baseline download')
    await unlink(download)
    await client.removeBaselineFile(name)
    return [up, down, upCpu, downCpu]
  }

  /** Same-schedule baseline: Tern's chunks POSTed at their offsets, one GET back. */
  const scheduleRound = async (name, size, expected) => {
    const agent = newAgent(parallel + 2)
    const [, up, upCpu] = await measured(baseline.pid, () => client.postChunks(agent, name, size))
    const [, down, downCpu] = await measured(baseline.pid, () =>
      downloadTo(agent, `${baseline.url}/files/${name}`, {}, download)
    )
    agent.destroy()
    if (expected) await verify(download, expected, 'same-schedule baseline download')
    await unlink(download)
    await client.removeBaselineFile(name)
    return [up, down, upCpu, downCpu]
  }

  /** Tern: share created, chunks, completed (the upload), token, download; the share is deleted. */
  const ternRound = async (shareId, size, expected) => {
    let agent = newAgent(parallel + 2)
    const before = expected ? await queryCounts(tern) : null
    const windowStart = monotonicUs()
    const [fileId, up, upCpu] = await measured(tern.pid, () =>
      client.ternUpload(agent, shareId, size)
    )
    if (expected) profileWindows.push([windowStart, monotonicUs()])
    if (before)
      queries = diffCounts(
        before,
        await queryCounts(tern),
        Math.max(1, Math.ceil(size / settings.chunkSize))
      )
    const cookie = await client.ternToken(agent, shareId)
    const [, down, downCpu] = await measured(tern.pid, () =>
      downloadTo(agent, `${tern.url}/api/shares/${shareId}/files/${fileId}`, { cookie }, download)
    )
    if (expected) await verify(download, expected, 'Tern download')
    await unlink(download)
    agent.destroy()
    // No idle connection is reused after a pause (the server may close it at that moment).
    agent = newAgent(1)
    await client.ternDelete(agent, shareId)
    agent.destroy()
    return [up, down, upCpu, downCpu]
  }

  // Warm-up (not timed): the first requests load code lazily and warm the JIT, on both servers.
  log('warm-up')
  const warmSize = Math.min(sizeBytes, 3 * settings.chunkSize)
  for (let round = 0; round < 2; round++) {
    await onePutRound(`warm-put-${round}.bin`, warmSize)
    await scheduleRound(`warm-${round}.bin`, warmSize)
    await ternRound(`bench-warm-${round}-${Date.now().toString(36)}`, warmSize)
  }

  const keys = ['onePut', 'schedule', 'tern']
  const timings = {}
  const cpu = {}
  for (const key of keys)
    for (const phase of ['Upload', 'Download'])
      ((timings[key + phase] = []), (cpu[key + phase] = []))
  const record = (key, [up, down, upCpu, downCpu]) => {
    timings[`${key}Upload`].push(up)
    timings[`${key}Download`].push(down)
    cpu[`${key}Upload`].push(upCpu)
    cpu[`${key}Download`].push(downCpu)
  }
  for (let run = 1; run <= runs; run++) {
    log(`run ${run}/${runs}`)
    record('onePut', await onePutRound(`put-${run}.bin`, sizeBytes, checksum))
    record('schedule', await scheduleRound(`file-${run}.bin`, sizeBytes, checksum))
    record('tern', await ternRound(`bench-${run}-${Date.now().toString(36)}`, sizeBytes, checksum))
  }

  return {
    node: process.version,
    medianMs: medians(timings),
    timingsMs: timings,
    serverCpuSeconds: cpu,
    medianCpuSeconds: medians(cpu),
    ternPeakRssBytes: treeMemory(tern.pid).peakRssBytes,
    ternProcesses: treeMemory(tern.pid).processes,
    ternIdleRssBytes: tern.idleRss,
    baselinePeakRssBytes: procStatus(baseline.pid).VmHWM,
    queriesPerChunk: queries,
    profileWindows,
  }
}

/**
 * Concurrency mode: `concurrent` uploads of `concurrentBytes` at once, as
 * many PUTs to the baseline against as many chunk-API uploads to Tern (each
 * upload on its own keep-alive connections, chunk 0 then `parallel` at a time).
 */
async function benchmarkConcurrent(settings, work, servers) {
  const { concurrent, concurrentBytes: size, parallel, runs } = settings
  const { baseline, tern, checksum, baselineDir } = servers
  const client = clientFor(settings, work, servers)
  const profileWindows = []

  const baselineRound = async (prefix) => {
    const names = Array.from({ length: concurrent }, (_, i) => `${prefix}-${i}.bin`)
    const agents = names.map(() => newAgent(1))
    const [, ms, cpu] = await measured(baseline.pid, () =>
      Promise.all(names.map((name, i) => client.putOnce(agents[i], name, size)))
    )
    for (const agent of agents) agent.destroy()
    for (const name of names) {
      const { size: written } = await stat(join(baselineDir, name))
      if (written !== size)
        throw new Error(`baseline ${name}: ${written} bytes written instead of ${size}`)
      await client.removeBaselineFile(name)
    }
    return [ms, cpu]
  }

  const ternRound = async (prefix, timed) => {
    const ids = Array.from({ length: concurrent }, (_, i) => `${prefix}-${i}`)
    const agents = ids.map(() => newAgent(parallel + 2))
    const windowStart = monotonicUs()
    const [fileIds, ms, cpu] = await measured(tern.pid, () =>
      Promise.all(ids.map((id, i) => client.ternUpload(agents[i], id, size)))
    )
    if (timed) profileWindows.push([windowStart, monotonicUs()])
    for (const agent of agents) agent.destroy()
    // One of the shares downloaded and checked (not timed): the uploads stored the right bytes.
    const agent = newAgent(2)
    const pick = ids.length - 1
    const cookie = await client.ternToken(agent, ids[pick])
    await downloadTo(
      agent,
      `${tern.url}/api/shares/${ids[pick]}/files/${fileIds[pick]}`,
      { cookie },
      client.download
    )
    await verify(client.download, checksum, 'Tern download after the concurrent uploads')
    await unlink(client.download)
    for (const id of ids) await client.ternDelete(agent, id)
    agent.destroy()
    return [ms, cpu]
  }

  log('warm-up')
  await baselineRound('warm')
  await ternRound(`warm-${Date.now().toString(36)}`, false)

  const timings = { baseline: [], tern: [] }
  const cpu = { baseline: [], tern: [] }
  for (let run = 1; run <= runs; run++) {
    log(`run ${run}/${runs}`)
    const [baselineMs, baselineCpu] = await baselineRound(`run-${run}`)
    const [ternMs, ternCpu] = await ternRound(`bench-${run}-${Date.now().toString(36)}`, true)
    timings.baseline.push(baselineMs)
    timings.tern.push(ternMs)
    cpu.baseline.push(baselineCpu)
    cpu.tern.push(ternCpu)
  }
  return {
    node: process.version,
    medianMs: medians(timings),
    timingsMs: timings,
    serverCpuSeconds: cpu,
    medianCpuSeconds: medians(cpu),
    ternPeakRssBytes: treeMemory(tern.pid).peakRssBytes,
    ternProcesses: treeMemory(tern.pid).processes,
    ternIdleRssBytes: tern.idleRss,
    baselinePeakRssBytes: procStatus(baseline.pid).VmHWM,
    profileWindows,
  }
}

/* ------------------------------------------------------------------------ */
/* Reports                                                                  */
/* ------------------------------------------------------------------------ */

function verdict(ok) {
  return ok ? 'PASS' : 'MISS'
}

function print(settings, results) {
  const { sizeBytes } = settings
  const rate = (ms) => sizeBytes / MiB / (ms / 1000)
  const m = results.medianMs
  const c = results.medianCpuSeconds
  const throughput = Object.fromEntries(Object.entries(m).map(([key, ms]) => [key, rate(ms)]))
  const ratios = {
    upload: throughput.ternUpload / throughput.onePutUpload,
    download: throughput.ternDownload / throughput.onePutDownload,
    sameScheduleUpload: throughput.ternUpload / throughput.scheduleUpload,
    sameScheduleDownload: throughput.ternDownload / throughput.scheduleDownload,
  }
  const rssMiB = results.ternPeakRssBytes / MiB
  results.throughputMiBs = throughput
  results.ratios = ratios
  results.verdicts = {
    upload: ratios.upload >= TARGETS.upload,
    download: ratios.download >= TARGETS.download,
    peakRss: rssMiB < TARGETS.peakRssMiB,
  }
  console.log('')
  console.log(
    `Transfer benchmark: ${format(sizeBytes)}, Tern chunks of ${settings.chunkSize.toLocaleString('en')} bytes, ` +
      `${settings.parallel} in parallel, median of ${settings.runs} run(s), Node ${results.node}` +
      (settings.profile ? ' (Tern under --cpu-prof: slower than without)' : '')
  )
  console.log('')
  console.log(
    '                                                    upload   server CPU     download   server CPU'
  )
  const row = (label, key) =>
    console.log(
      `${label.padEnd(46)} ${fmt(throughput[`${key}Upload`])} MiB/s ${c[`${key}Upload`].toFixed(2).padStart(6)} s ` +
        `${fmt(throughput[`${key}Download`])} MiB/s ${c[`${key}Download`].toFixed(2).padStart(6)} s`
    )
  row('baseline, one PUT / GET (1 MiB buffers)', 'onePut')
  row('baseline, same chunk schedule / GET (defaults)', 'schedule')
  row('Tern, chunk API / share download', 'tern')
  console.log('')
  const line = (label, value, target) =>
    console.log(`${label.padEnd(46)} ${value.padStart(9)}   ${target.padEnd(18)}`)
  line(
    'Tern upload / one-PUT upload',
    ratios.upload.toFixed(2),
    `>= ${TARGETS.upload}  ${verdict(results.verdicts.upload)}`
  )
  line(
    'Tern download / one-PUT download',
    ratios.download.toFixed(2),
    `>= ${TARGETS.download}  ${verdict(results.verdicts.download)}`
  )
  line(
    peakRssLabel(results),
    `${rssMiB.toFixed(0)} MiB`,
    `< ${TARGETS.peakRssMiB} MiB ${verdict(results.verdicts.peakRss)}`
  )
  line(
    '(Tern upload / same-schedule upload)',
    ratios.sameScheduleUpload.toFixed(2),
    `>= ${TARGETS.sameScheduleUpload}  ${verdict(ratios.sameScheduleUpload >= TARGETS.sameScheduleUpload)}`
  )
  line(
    '(Tern download / same-schedule download)',
    ratios.sameScheduleDownload.toFixed(2),
    `>= ${TARGETS.sameScheduleDownload}  ${verdict(ratios.sameScheduleDownload >= TARGETS.sameScheduleDownload)}`
  )
  console.log('')
  console.log(
    `Tern RSS after start ${(results.ternIdleRssBytes / MiB).toFixed(0)} MiB; baseline peak ${(results.baselinePeakRssBytes / MiB).toFixed(0)} MiB` +
      treeNote(results)
  )
  const chunks = Math.max(1, Math.ceil(sizeBytes / settings.chunkSize))
  const perChunk = (seconds) => `${((seconds * 1000) / chunks).toFixed(1)} ms`
  console.log(
    `server CPU per ${settings.chunkSize.toLocaleString('en')} bytes uploaded (median): Tern ${perChunk(c.ternUpload)}, ` +
      `same-schedule baseline ${perChunk(c.scheduleUpload)}, one-PUT baseline ${perChunk(c.onePutUpload)}`
  )
  printQueries(results.queriesPerChunk)
  const all = (list) => list.map((ms) => `${(ms / 1000).toFixed(2)}s`).join(' ')
  const t = results.timingsMs
  console.log(
    `runs: one-PUT up ${all(t.onePutUpload)} down ${all(t.onePutDownload)} | same-schedule up ${all(t.scheduleUpload)} ` +
      `down ${all(t.scheduleDownload)} | Tern up ${all(t.ternUpload)} down ${all(t.ternDownload)}`
  )
}

function printConcurrent(settings, results) {
  const total = settings.concurrent * settings.concurrentBytes
  const rate = (ms) => total / MiB / (ms / 1000)
  const m = results.medianMs
  const c = results.medianCpuSeconds
  const throughput = { baseline: rate(m.baseline), tern: rate(m.tern) }
  const ratio = throughput.tern / throughput.baseline
  const rssMiB = results.ternPeakRssBytes / MiB
  results.throughputMiBs = throughput
  results.ratios = { concurrent: ratio }
  results.verdicts = {
    concurrent: ratio >= TARGETS.concurrent,
    peakRss: rssMiB < TARGETS.concurrentPeakRssMiB,
  }
  console.log('')
  console.log(
    `Concurrent uploads: ${settings.concurrent} x ${format(settings.concurrentBytes)} at once; Tern: chunks of ` +
      `${settings.chunkSize.toLocaleString('en')} bytes, ${settings.parallel} in parallel per upload; ` +
      `median of ${settings.runs} run(s), Node ${results.node}` +
      (settings.profile ? ' (Tern under --cpu-prof: slower than without)' : '')
  )
  console.log('')
  console.log(
    `baseline, ${settings.concurrent} PUTs (1 MiB buffers)`.padEnd(46) +
      ` ${fmt(throughput.baseline)} MiB/s aggregate, server CPU ${c.baseline.toFixed(2)} s`
  )
  console.log(
    `Tern, ${settings.concurrent} chunk-API uploads`.padEnd(46) +
      ` ${fmt(throughput.tern)} MiB/s aggregate, server CPU ${c.tern.toFixed(2)} s`
  )
  console.log('')
  console.log(
    `${'Tern / baseline aggregate throughput'.padEnd(46)} ${ratio.toFixed(2).padStart(9)}   >= ${TARGETS.concurrent}  ${verdict(results.verdicts.concurrent)}`
  )
  console.log(
    `${peakRssLabel(results).padEnd(46)} ${`${rssMiB.toFixed(0)} MiB`.padStart(9)}   < ${TARGETS.concurrentPeakRssMiB} MiB ${verdict(results.verdicts.peakRss)}`
  )
  console.log(
    `Tern RSS after start ${(results.ternIdleRssBytes / MiB).toFixed(0)} MiB; baseline peak ${(results.baselinePeakRssBytes / MiB).toFixed(0)} MiB` +
      treeNote(results)
  )
  const all = (list) => list.map((ms) => `${(ms / 1000).toFixed(2)}s`).join(' ')
  console.log(
    `runs: baseline ${all(results.timingsMs.baseline)} | Tern ${all(results.timingsMs.tern)}`
  )
}

function printQueries(queries) {
  if (!queries) return
  const kinds = Object.entries(queries.perChunk)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count.toFixed(2)}`)
    .join(', ')
  console.log(
    `database statements per chunk (last timed upload, ${queries.chunks} chunks, share creation and completion included): ` +
      `${queries.totalPerChunk.toFixed(2)} (${kinds}); SQLite time ${queries.dbMsPerChunk.toFixed(2)} ms per chunk`
  )
}

function fmt(value) {
  return value.toFixed(1).padStart(8)
}

/** "Tern peak RSS (VmHWM)", or for a primary with HTTP workers the sum of their VmHWM (an upper bound). */
function peakRssLabel(results) {
  return results.ternProcesses.length > 1
    ? `Tern peak RSS (sum of ${results.ternProcesses.length} VmHWM)`
    : 'Tern peak RSS (VmHWM)'
}

/** With several Tern processes: each one's peak, and that the sum is an upper bound. */
function treeNote(results) {
  const each = describeTree({ processes: results.ternProcesses })
  return each
    ? `\nTern is ${results.ternProcesses.length} processes (TERN_WORKERS); peak RSS summed over them, an upper bound (they need not peak together): ${each}`
    : ''
}

/* ------------------------------------------------------------------------ */
/* Database statements, CPU profile                                         */
/* ------------------------------------------------------------------------ */

/** Asks count_queries.cjs inside Tern for its counters (SIGUSR2) and waits for the new dump; null when not counting. */
async function queryCounts(tern) {
  if (!tern.queryFile) return null
  // Every process of Tern's tree (the primary and its HTTP workers) counts its own
  // statements into <queryFile>.<pid>; the sum is Tern's.
  tern.queryDumps ??= {}
  const total = { counts: {}, dbMs: 0 }
  for (const pid of processTree(tern.pid)) {
    const previous = tern.queryDumps[pid] ?? 0
    try {
      process.kill(pid, 'SIGUSR2')
    } catch {
      continue
    }
    const deadline = Date.now() + 10_000
    for (;;) {
      try {
        const dump = JSON.parse(await readFile(`${tern.queryFile}.${pid}`, 'utf8'))
        if (dump.dumps > previous) {
          tern.queryDumps[pid] = dump.dumps
          for (const [kind, count] of Object.entries(dump.counts))
            total.counts[kind] = (total.counts[kind] ?? 0) + count
          total.dbMs += dump.dbMs
          break
        }
      } catch {}
      if (Date.now() > deadline)
        throw new Error(`Tern (pid ${pid}) did not write its query counts within 10 s`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  return total
}

function diffCounts(before, after, chunks) {
  const perChunk = {}
  let total = 0
  for (const [kind, count] of Object.entries(after.counts)) {
    const delta = count - (before.counts[kind] ?? 0)
    if (delta > 0) {
      perChunk[kind] = delta / chunks
      total += delta
    }
  }
  return {
    chunks,
    perChunk,
    totalPerChunk: total / chunks,
    dbMsPerChunk: (after.dbMs - before.dbMs) / chunks,
  }
}

/** process.hrtime in microseconds: CLOCK_MONOTONIC, the clock of V8's profile timestamps. */
function monotonicUs() {
  return Number(process.hrtime.bigint() / 1000n)
}

/**
 * Stops Tern gracefully (SIGTERM: the profile is written at exit), reads its
 * .cpuprofile, copies it to bench/transfer/profiles/ when BENCH_PROFILE_OUT
 * names it, and summarizes the samples inside `windows`.
 */
async function profileSummary(tern, windows) {
  if (tern.child.exitCode === null) {
    tern.child.kill('SIGTERM')
    await once(tern.child, 'exit', 60_000)
  }
  const files = (await readdir(tern.profileDir)).filter((name) => name.endsWith('.cpuprofile'))
  if (files.length === 0) throw new Error('Tern wrote no CPU profile (did it exit on SIGTERM?)')
  const path = join(tern.profileDir, files[0])
  if (process.env.BENCH_PROFILE_OUT) {
    const outDir = join(ROOT, 'bench/transfer/profiles')
    await mkdir(outDir, { recursive: true })
    const target = join(outDir, `${basename(process.env.BENCH_PROFILE_OUT)}.cpuprofile`)
    await copyFile(path, target)
    log(`profile copied to ${target}`)
  }
  const profile = JSON.parse(await readFile(path, 'utf8'))
  const summary = summarizeProfile(profile, windows)
  if (summary.sampledMs === 0)
    throw new Error('no profile sample falls inside the upload phases (clock mismatch?)')
  return summary
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

/**
 * Compiles Tern's server code the way `node ace build` does (tsc, same
 * tsconfig) into `out`, with package.json, ace.js and links to
 * node_modules, resources and public: the JavaScript a production install
 * runs. (Running the TypeScript sources through a loader instead keeps the
 * transpiler and its source maps in the process: about 80 MB more RSS.)
 */
function buildTern(out) {
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
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }
  )
  if (!existsSync(join(out, 'bin/server.js')))
    throw new Error(`the build failed:\n${tsc.stdout}\n${tsc.stderr}`)
  writeFileSync(join(out, 'package.json'), readFileSync(join(ROOT, 'package.json')))
  writeFileSync(join(out, 'ace.js'), "await import('./bin/console.js')\n")
  for (const name of ['node_modules', 'resources', 'public'])
    symlinkSync(join(ROOT, name), join(out, name))
  return out
}

/**
 * Tern with NODE_ENV=production, LOG_LEVEL=warn, SQLite and the local disk
 * in a fresh DATA_DIR, after running the migrations: from the build of
 * `buildTern`, or from the sources with BENCH_FROM_SOURCE=1.
 */
async function startTern(settings, work, dataDir, children) {
  const fromSource = process.env.BENCH_FROM_SOURCE === '1'
  const prebuilt = process.env.BENCH_BUILD_DIR
  const cwd = fromSource
    ? ROOT
    : prebuilt && existsSync(join(prebuilt, 'bin/server.js'))
      ? prebuilt
      : buildTern(prebuilt || join(work, 'build'))
  const env = {}
  const nodeArgs = []
  const queryFile = settings.countQueries ? join(work, 'queries.json') : null
  if (queryFile) {
    nodeArgs.push('--require', join(ROOT, 'bench/transfer/count_queries.cjs'))
    env.BENCH_QUERY_FILE = queryFile
    env.BENCH_ROOT = ROOT
  }
  const profileDir = settings.profile ? join(work, 'profile') : null
  if (profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`)
  // The profile summary reads one process' profile: one HTTP worker, no primary, unless TERN_WORKERS says otherwise.
  if (profileDir && process.env.TERN_WORKERS === undefined) env.TERN_WORKERS = '1'
  if (fromSource) nodeArgs.push('--import=@poppinss/ts-exec')
  const tern = await startTernServer({
    cwd,
    dataDir,
    children,
    env,
    nodeArgs,
    entry: fromSource ? 'bin/server.ts' : 'bin/server.js',
  })
  return { ...tern, fromSource, queryFile, profileDir }
}

/** Signs up the first user (the admin) and raises share.maxSize to twice `sizeBytes` (and sets share.chunkSize) through the admin API. */
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
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        })
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body) {
      const source =
        body.length === 0
          ? null
          : createReadStream(body.path, {
              start: body.start,
              end: body.start + body.length - 1,
              highWaterMark: MiB,
            })
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

/** Writes `size` random bytes to `path`; resolves to their SHA-256. */
async function generateFile(path, size) {
  const hash = createHash('sha256')
  const handle = await open(path, 'w')
  const buffer = Buffer.alloc(4 * MiB)
  try {
    for (let written = 0; written < size;) {
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
  if (actual !== expected)
    throw new Error(`${what}: SHA-256 ${actual} differs from the source's ${expected}`)
}

/* ------------------------------------------------------------------------ */

function medians(lists) {
  return Object.fromEntries(Object.entries(lists).map(([key, values]) => [key, median(values)]))
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function format(bytes) {
  return bytes >= 1024 * MiB
    ? `${(bytes / 1024 / MiB).toFixed(2)} GiB`
    : `${(bytes / MiB).toFixed(0)} MiB`
}

function log(message) {
  console.log(`bench: ${message}`)
}
