/**
 * Page-serving benchmark (bench/README.md): Tern's pages against GET
 * /api/configs on the same server and against the same share page served as
 * a static file by a tuned plain node:http server, in one run, on loopback.
 *
 *   node_modules/.bin/node bench/pages/run.js                 # 10 s per measurement
 *   BENCH_DURATION_S=5 node_modules/.bin/node bench/pages/run.js   # quick check
 *
 * It builds Tern as a production install runs it (bench/pages/build.js: tsc
 * for the server, Vite for the browser and SSR bundles) and starts it like
 * bench/transfer (NODE_ENV=production, LOG_LEVEL=warn, SQLite and the local
 * disk in a temporary DATA_DIR, after the migrations), signs up the first
 * user (the admin), creates a completed share of 3 small files, then:
 * - fetches each page once the way a browser does (accept-encoding: gzip, br)
 *   and records the bytes on the wire (headers + body), the content encoding,
 *   and the JavaScript the page loads (its module scripts and modulepreload
 *   links, each fetched with accept-encoding gzip/br; plus, from the Vite
 *   manifest, the page component's chunk that the entry imports at run time);
 * - starts the baseline (this file with BENCH_ROLE=static): the share page's
 *   HTML as Tern rendered it for a visitor, gzip- and brotli-compressed once
 *   at start, served from memory by plain node:http with keep-alive;
 * - loads each page with autocannon (programmatic API) at each connection
 *   count, after a warm-up, and prints requests/s, p50/p99 latency, errors,
 *   the server's CPU seconds per 1000 requests (/proc/<pid>/stat, summed over Tern's
 *   process tree: the primary and its HTTP workers when TERN_WORKERS > 1) and the load
 *   generator's own CPU, then the ratios and the targets (bench/README.md).
 * Temporary files are removed at the end (also on failure or Ctrl-C); the
 * whole run stops after BENCH_TIMEOUT_S seconds.
 *
 * Environment (all optional):
 *   BENCH_DURATION_S   seconds of load per page and connection count (default 10)
 *   BENCH_WARMUP_S     seconds of unmeasured load before each measurement (default 3)
 *   BENCH_CONNECTIONS  comma-separated connection counts (default "50,200")
 *   BENCH_TIMEOUT_S    overall time limit (default 1200)
 *   BENCH_TMP          where temporary files go (default the OS temp folder)
 *   BENCH_JSON         a path: also write the results there as JSON
 *   BENCH_BUILD_DIR    a build made by `node bench/pages/build.js <dir>` (skips the build)
 *   TERN_WORKERS       Tern's HTTP workers (start/cluster.ts; default in production: the cores)
 *   BENCH_TERN_NODE_ARGS extra node options for Tern (profiling: "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
import { fork } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants as zlibConstants,
  gunzipSync,
  gzipSync,
} from 'node:zlib'
import {
  cookiesOf,
  describeTree,
  envNumber,
  expectStatus,
  once,
  startTernServer,
  treeCpuSeconds,
  treeMemory,
  withWorkDir,
} from '../lib/common.js'
import { buildTern } from './build.js'

const KB = 1000
/** Browsers send this; every measured request does too. */
const ACCEPT_ENCODING = 'gzip, br'
const TARGETS = { shareToConfigs: 0.5, p99Ms: 100, wireBytes: 40 * KB, jsBytes: 150 * KB }

if (process.env.BENCH_ROLE === 'static') {
  runStaticServer(process.env.BENCH_STATIC_FILE)
} else {
  await main()
}

/* ------------------------------------------------------------------------ */
/* Baseline: the share page as a static file                                */
/* ------------------------------------------------------------------------ */

/**
 * A tuned plain node:http server: one HTML document, compressed once at
 * start (brotli quality 11, gzip level 9), answered from memory for every
 * GET with precomputed headers; brotli when accepted, else gzip, else raw.
 */
function runStaticServer(file) {
  const html = readFileSync(file)
  const variants = {
    br: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(html, { level: 9 }),
    identity: html,
  }
  const headers = Object.fromEntries(
    Object.entries(variants).map(([encoding, body]) => [
      encoding,
      {
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(body.length),
        'cache-control': 'no-cache',
        'vary': 'accept-encoding',
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
      },
    ])
  )
  const server = http.createServer((req, res) => {
    const accepted = req.headers['accept-encoding'] ?? ''
    const encoding = accepted.includes('br')
      ? 'br'
      : accepted.includes('gzip')
        ? 'gzip'
        : 'identity'
    res.writeHead(200, headers[encoding])
    res.end(variants[encoding])
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
  process.on('disconnect', () => process.exit(0))
}

/* ------------------------------------------------------------------------ */
/* Orchestration                                                            */
/* ------------------------------------------------------------------------ */

async function main() {
  const settings = {
    durationS: envNumber('BENCH_DURATION_S', 10),
    warmupS: envNumber('BENCH_WARMUP_S', 3),
    connections: (process.env.BENCH_CONNECTIONS ?? '50,200').split(',').map((value) => {
      const count = Number(value)
      if (!Number.isInteger(count) || count <= 0)
        throw new Error('BENCH_CONNECTIONS must list positive integers')
      return count
    }),
    timeoutSeconds: envNumber('BENCH_TIMEOUT_S', 1200),
  }
  await withWorkDir('tern-bench-pages-', settings.timeoutSeconds, async (work, children) => {
    const results = await benchmark(settings, work, children)
    print(settings, results)
    if (process.env.BENCH_JSON)
      await writeFile(process.env.BENCH_JSON, JSON.stringify({ settings, ...results }, null, 2))
  })
}

async function benchmark(settings, work, children) {
  const prebuilt = process.env.BENCH_BUILD_DIR
  let buildDir
  if (prebuilt && existsSync(join(prebuilt, 'bin/server.js'))) {
    buildDir = prebuilt
  } else {
    log('building Tern (tsc and vite, as `node ace build`)…')
    buildDir = buildTern(join(work, 'build'))
  }
  log('starting Tern…')
  const tern = await startTern(buildDir, join(work, 'tern-data'), children)
  const { cookie, shareId } = await prepareTern(tern.url)

  const pages = [
    {
      key: 'share',
      label: `share page (/share/${shareId}, visitor)`,
      url: `${tern.url}/share/${shareId}`,
      pid: tern.pid,
    },
    { key: 'home', label: 'home page (/, visitor)', url: `${tern.url}/`, pid: tern.pid },
    {
      key: 'upload',
      label: 'upload page (/upload, signed in)',
      url: `${tern.url}/upload`,
      pid: tern.pid,
      cookie,
    },
    {
      key: 'configs',
      label: 'GET /api/configs (reference)',
      url: `${tern.url}/api/configs`,
      pid: tern.pid,
      accept: 'application/json',
    },
  ]
  // A visitor's upload page: public only with share.allowUnauthenticatedShares (off by default).
  const visitorUpload = await fetchOnce(`${tern.url}/upload`, {})
  const uploadNote =
    visitorUpload.status === 200
      ? 'the upload page is public (share.allowUnauthenticatedShares on)'
      : `a visitor's /upload answers ${visitorUpload.status}${visitorUpload.headers.location ? ` -> ${visitorUpload.headers.location}` : ''} ` +
        '(share.allowUnauthenticatedShares off, the default): measured signed in as the admin'

  log('fetching each page once (wire size, encoding, JavaScript)…')
  const manifest = JSON.parse(
    readFileSync(join(buildDir, 'public/assets/.vite/manifest.json'), 'utf8')
  )
  for (const page of pages) {
    const response = await fetchOnce(page.url, { cookie: page.cookie, accept: page.accept })
    if (response.status !== 200)
      throw new Error(`${page.label}: expected 200, got ${response.status}`)
    page.single = {
      status: response.status,
      wireBytes: response.wireBytes,
      bodyBytes: response.body.length,
      encoding: response.headers['content-encoding'] ?? 'none',
      cacheControl: response.headers['cache-control'] ?? '',
    }
    if (page.key !== 'configs') {
      const html = decode(response).toString('utf8')
      if (page.key === 'share') {
        const object = inertiaPage(html)
        if (
          object?.component !== 'share/show' ||
          object.props.shareId !== shareId ||
          object.props.initialState?.kind !== 'tokenRequired'
        ) {
          throw new Error(
            `the share page did not render the share: ${JSON.stringify(object)?.slice(0, 300) ?? html.slice(0, 300)}`
          )
        }
        page.html = html
      }
      page.js = await javascriptOf(html, tern.url, manifest, page.cookie)
    }
  }

  const browserJs = process.env.BENCH_BROWSER === '0' ? null : await browserJavascript(pages[0].url)

  log('starting the baseline (the share page as a static file, plain node:http)…')
  const staticFile = join(work, 'share.html')
  await writeFile(staticFile, pages[0].html)
  const baseline = await startStatic(staticFile, children)
  const staticPage = {
    key: 'static',
    label: 'share page as a static file (baseline)',
    url: `${baseline.url}/share`,
    pid: baseline.pid,
  }
  const staticResponse = await fetchOnce(staticPage.url, {})
  staticPage.single = {
    status: staticResponse.status,
    wireBytes: staticResponse.wireBytes,
    bodyBytes: staticResponse.body.length,
    encoding: staticResponse.headers['content-encoding'] ?? 'none',
    cacheControl: staticResponse.headers['cache-control'] ?? '',
  }
  pages.push(staticPage)

  const { default: autocannon } = await import('autocannon')
  const runs = []
  for (const connections of settings.connections) {
    for (const page of pages) {
      log(
        `${page.key} at ${connections} connections: warm-up ${settings.warmupS} s, then ${settings.durationS} s`
      )
      await load(autocannon, page, connections, settings.warmupS)
      // Requests the warm-up left queued are still being answered after its connections closed.
      await waitIdle(page.pid)
      const cpuBefore = treeCpuSeconds(page.pid)
      const ownBefore = process.cpuUsage()
      const result = await load(autocannon, page, connections, settings.durationS)
      const own = process.cpuUsage(ownBefore)
      const serverCpu = treeCpuSeconds(page.pid) - cpuBefore
      const completed = result.requests.total
      runs.push({
        page: page.key,
        connections,
        requestsPerSecond: completed / result.duration,
        completed,
        p50Ms: completed > 0 ? result.latency.p50 : null,
        p99Ms: completed > 0 ? result.latency.p99 : null,
        maxMs: result.latency.max,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        bytesPerResponse: completed > 0 ? result.throughput.total / completed : 0,
        serverCpuSeconds: serverCpu,
        serverCpuPer1000: completed > 0 ? (serverCpu / completed) * 1000 : null,
        loadGeneratorCpuSeconds: (own.user + own.system) / 1e6,
        durationS: result.duration,
      })
    }
  }

  // The first request for an asset gets a quick brotli form; the smallest one
  // (quality 11) replaces it in the background (app/services/http/hashed_assets.ts).
  // Minutes of load later it has long been made: this is what later visitors get.
  const share = pages.find((page) => page.key === 'share')
  const laterJs = share ? await javascriptOf(share.html, tern.url, manifest, share.cookie) : null

  return {
    node: process.version,
    shareId,
    uploadNote,
    browserJs,
    laterJs,
    pages: pages.map(({ key, label, single, js }) => ({ key, label, single, js })),
    runs,
    ...ternMemory(tern.pid),
  }
}

/** Tern's memory, summed over its process tree (primary and HTTP workers with TERN_WORKERS > 1). */
function ternMemory(pid) {
  const memory = treeMemory(pid)
  return {
    ternRssBytes: memory.rssBytes,
    ternPeakRssBytes: memory.peakRssBytes,
    ternProcesses: memory.processes,
  }
}

/** One autocannon run of `seconds` against `page`, as a browser would ask for it (no cookies unless the page needs one). */
function load(autocannon, page, connections, seconds) {
  const headers = {
    'accept-encoding': ACCEPT_ENCODING,
    'accept': page.accept ?? 'text/html,application/xhtml+xml,*/*;q=0.8',
  }
  if (page.cookie) headers.cookie = page.cookie
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: page.url, connections, duration: seconds, headers, timeout: 30 },
      (error, result) => (error ? reject(error) : resolve(result))
    )
    instance.on('error', reject)
  })
}

/** Waits until `pid` uses less than 5 % of a core over half a second (at most 120 s). */
async function waitIdle(pid) {
  const deadline = Date.now() + 120_000
  for (;;) {
    const before = treeCpuSeconds(pid)
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (treeCpuSeconds(pid) - before < 0.025) return
    if (Date.now() > deadline)
      throw new Error(`the server (pid ${pid}) stayed busy for 120 s after the warm-up`)
  }
}

/* ------------------------------------------------------------------------ */
/* Report                                                                   */
/* ------------------------------------------------------------------------ */

function print(settings, results) {
  const { runs, pages } = results
  const run = (page, connections) =>
    runs.find((entry) => entry.page === page && entry.connections === connections)
  const check = (ok) => (ok ? 'PASS' : 'MISS')
  console.log('')
  console.log(
    `Page benchmark: ${settings.durationS} s per measurement after ${settings.warmupS} s of warm-up, ` +
      `connections ${settings.connections.join(' and ')}, autocannon, accept-encoding "${ACCEPT_ENCODING}", Node ${results.node}`
  )
  console.log(`Note: ${results.uploadNote}.`)
  console.log('')
  console.log(
    'page       conns    req/s   p50 ms   p99 ms  non-2xx errors  bytes/resp  server CPU s/1000 req  load-gen CPU s'
  )
  for (const entry of runs) {
    console.log(
      [
        entry.page.padEnd(9),
        String(entry.connections).padStart(6),
        entry.requestsPerSecond.toFixed(1).padStart(8),
        String(entry.p50Ms ?? '-').padStart(8),
        String(entry.p99Ms ?? '-').padStart(8),
        String(entry.non2xx).padStart(8),
        String(entry.errors + entry.timeouts).padStart(6),
        Math.round(entry.bytesPerResponse).toLocaleString('en').padStart(11),
        (entry.serverCpuPer1000 === null ? '-' : entry.serverCpuPer1000.toFixed(2)).padStart(22),
        `${entry.loadGeneratorCpuSeconds.toFixed(1)} (${((entry.loadGeneratorCpuSeconds / entry.durationS) * 100).toFixed(0)}%)`.padStart(
          15
        ),
      ].join(' ')
    )
  }
  console.log('')
  console.log(
    'page       wire bytes (one response)  body bytes  encoding    JS as sent (files)  JS uncompressed'
  )
  for (const page of pages) {
    const js = page.js
    console.log(
      [
        page.key.padEnd(9),
        page.single.wireBytes.toLocaleString('en').padStart(26),
        page.single.bodyBytes.toLocaleString('en').padStart(11),
        page.single.encoding.padStart(9),
        (js ? `${js.wireBytes.toLocaleString('en')} (${js.files.length})` : '-').padStart(23),
        (js ? js.decodedBytes.toLocaleString('en') : '-').padStart(16),
      ].join(' ')
    )
  }
  const share = pages.find((page) => page.key === 'share')
  console.log('')
  console.log(
    `JavaScript of a visitor's share page (${share.js.files.length} files; "html": module script or modulepreload, "lazy": the page component's chunks from the manifest):`
  )
  for (const file of share.js.files) {
    console.log(
      `  ${file.path.padEnd(48)} ${file.source.padEnd(5)} ${file.wireBytes.toLocaleString('en').padStart(9)} B ${file.encoding.padEnd(8)} ${file.decodedBytes.toLocaleString('en').padStart(9)} B  cache-control: ${file.cacheControl || '(none)'}`
    )
  }

  console.log('')
  console.log('Ratios and targets:')
  const ratios = {}
  for (const connections of settings.connections) {
    const shareRun = run('share', connections)
    const configs = run('configs', connections)
    const baseline = run('static', connections)
    const toConfigs =
      configs.requestsPerSecond > 0 ? shareRun.requestsPerSecond / configs.requestsPerSecond : 0
    const toStatic =
      baseline.requestsPerSecond > 0 ? shareRun.requestsPerSecond / baseline.requestsPerSecond : 0
    ratios[connections] = { shareToConfigs: toConfigs, shareToStatic: toStatic }
    console.log(
      `  share page / GET /api/configs req/s at ${connections} connections: ${toConfigs.toFixed(3)} ` +
        `(target >= ${TARGETS.shareToConfigs}) ${check(toConfigs >= TARGETS.shareToConfigs)}`
    )
    console.log(
      `  share page Tern / static file req/s at ${connections} connections (the ceiling): ${toStatic.toFixed(3)}`
    )
  }
  const top = Math.max(...settings.connections)
  const p99 = run('share', top).p99Ms
  console.log(
    `  share page p99 at ${top} connections: ${p99 ?? 'no request completed'}${p99 === null ? '' : ' ms'} ` +
      `(target < ${TARGETS.p99Ms} ms) ${check(p99 !== null && p99 < TARGETS.p99Ms)}`
  )
  const wire = share.single.wireBytes
  console.log(
    `  share page on the wire: ${wire.toLocaleString('en')} bytes, HTML ${share.single.encoding === 'none' ? 'not compressed' : `compressed (${share.single.encoding})`} ` +
      `(target <= ${TARGETS.wireBytes.toLocaleString('en')}) ${check(wire <= TARGETS.wireBytes)}`
  )
  const js = share.js.wireBytes
  console.log(
    `  share page JavaScript: ${js.toLocaleString('en')} bytes as sent (${share.js.decodedBytes.toLocaleString('en')} uncompressed; ` +
      `${share.js.files.filter((file) => file.encoding === 'none').length} of ${share.js.files.length} files not compressed) ` +
      `(target <= ${TARGETS.jsBytes.toLocaleString('en')} compressed) ${check(js <= TARGETS.jsBytes)}`
  )
  if (results.laterJs) {
    const later = results.laterJs.wireBytes
    console.log(
      `  share page JavaScript to later visitors (after the background brotli-11 forms replaced the first ones): ` +
        `${later.toLocaleString('en')} bytes as sent (target <= ${TARGETS.jsBytes.toLocaleString('en')}) ${check(later <= TARGETS.jsBytes)}`
    )
  }
  const browserJs = results.browserJs
  if (browserJs?.error) console.log(`  (no browser count: ${browserJs.error})`)
  else if (browserJs) {
    console.log(
      `  A real browser (Chromium, fresh profile) loading the share page fetched ${browserJs.files} JavaScript files: ` +
        `${browserJs.wireBytes.toLocaleString('en')} bytes on the wire (headers + bodies as sent), ` +
        `${browserJs.compressed} of them compressed (target <= ${TARGETS.jsBytes.toLocaleString('en')}) ${check(browserJs.wireBytes <= TARGETS.jsBytes)}; ` +
        `the whole page ${browserJs.allBytes.toLocaleString('en')} bytes in ${browserJs.requests} requests.`
    )
  }
  const immutable = share.js.files.filter((file) => /immutable/.test(file.cacheControl)).length
  console.log(
    `  share page JavaScript cached immutably: ${immutable} of ${share.js.files.length} files`
  )
  console.log(
    `Tern RSS after the run: ${(results.ternRssBytes / 1024 / 1024).toFixed(0)} MiB (peak ${(results.ternPeakRssBytes / 1024 / 1024).toFixed(0)} MiB${
      results.ternProcesses.length > 1
        ? `; ${results.ternProcesses.length} processes, RSS and peak summed, the peak an upper bound (each process' VmHWM): ${describeTree({ processes: results.ternProcesses })}`
        : ''
    }). ` +
      'The load generator runs in this process on the same cores as the server: compare server CPU per 1000 requests when the machine is shared.'
  )
  results.ratios = ratios
}

/* ------------------------------------------------------------------------ */
/* Servers                                                                  */
/* ------------------------------------------------------------------------ */

async function startStatic(file, children) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_ROLE: 'static', BENCH_STATIC_FILE: file },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  children.push(child)
  const message = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`static server exited (${code})`)))
  })
  return { pid: child.pid, url: `http://127.0.0.1:${message.port}` }
}

/** Tern from the build: NODE_ENV=production, LOG_LEVEL=warn, SQLite and the local disk in a fresh DATA_DIR, after the migrations. */
function startTern(cwd, dataDir, children) {
  return startTernServer({ cwd, dataDir, children })
}

/**
 * Signs up the first user (the admin) and creates a share of 3 small files
 * through the chunk API (one chunk each), completes it, and waits until the
 * share's API (as a visitor with a share token) lists them.
 */
async function prepareTern(url) {
  const signUp = await request(`${url}/api/auth/signUp`, {
    method: 'POST',
    json: { email: 'bench@example.com', username: 'bench', password: 'bench-password-1' },
  })
  expectStatus(signUp, 201, 'sign up')
  const cookie = cookiesOf(signUp).join('; ')
  const shareId = `bench-pages-${Date.now().toString(36)}`
  const created = await request(`${url}/api/shares`, {
    method: 'POST',
    headers: { cookie },
    json: { id: shareId, expiration: 'never' },
  })
  expectStatus(created, 201, 'create share')
  const fileNames = ['notes.txt', 'report.csv', 'photo-1.jpg']
  for (const [index, name] of fileNames.entries()) {
    const body = Buffer.alloc(2000 + index * 3000, `${name} `)
    const query = new URLSearchParams({ name, chunkIndex: '0', totalChunks: '1' })
    const response = await request(`${url}/api/shares/${shareId}/files?${query}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/octet-stream' },
      raw: body,
    })
    expectStatus(response, 201, `upload ${name}`)
  }
  const completed = await request(`${url}/api/shares/${shareId}/complete`, {
    method: 'POST',
    headers: { cookie },
  })
  expectStatus(completed, 202, 'complete share')
  // The share page renders the share's id and state; its files come from the JSON API in the browser.
  const deadline = Date.now() + 30_000
  for (;;) {
    const token = await request(`${url}/api/shares/${shareId}/token`, { method: 'POST', json: {} })
    const tokenCookie = cookiesOf(token).find((line) => line.startsWith(`share_${shareId}_token=`))
    const share = tokenCookie
      ? await request(`${url}/api/shares/${shareId}`, { headers: { cookie: tokenCookie } })
      : token
    const listed =
      share.status === 200 ? (JSON.parse(share.body).files ?? []).map((file) => file.name) : []
    if (fileNames.every((name) => listed.includes(name))) break
    if (Date.now() > deadline)
      throw new Error(
        `the share did not list the 3 files within 30 s: ${share.status} ${share.body.slice(0, 300)}`
      )
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { cookie, shareId, fileNames }
}

/* ------------------------------------------------------------------------ */
/* HTTP                                                                     */
/* ------------------------------------------------------------------------ */

/** One request on a fresh connection. `json` sends JSON, `raw` a Buffer. Resolves to {status, headers, body (text)}. */
function request(url, { method = 'GET', headers = {}, json, raw } = {}) {
  return new Promise((resolve, reject) => {
    const allHeaders = { ...headers }
    let payload = raw
    if (json !== undefined) {
      payload = Buffer.from(JSON.stringify(json))
      allHeaders['content-type'] = 'application/json'
    }
    if (payload) allHeaders['content-length'] = payload.length
    const req = http.request(url, { method, headers: allHeaders, agent: false }, (res) => {
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
    req.end(payload)
  })
}

/**
 * GET `url` as a browser would (accept-encoding gzip, br; no cookie unless
 * given) on its own connection. Resolves to {status, headers, body (the bytes
 * as sent, not decoded), wireBytes (all bytes the server sent: status line,
 * headers and body)}.
 */
function fetchOnce(url, { cookie, accept } = {}) {
  return new Promise((resolve, reject) => {
    const headers = {
      'accept-encoding': ACCEPT_ENCODING,
      'accept': accept ?? 'text/html,application/xhtml+xml,*/*;q=0.8',
    }
    if (cookie) headers.cookie = cookie
    const req = http.request(url, { headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => {
        const wireBytes = res.socket.bytesRead
        res.socket.destroy()
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          wireBytes,
        })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The body of a `fetchOnce` response, decompressed. */
function decode(response) {
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(response.body)
  if (encoding === 'gzip') return gunzipSync(response.body)
  return response.body
}

/**
 * The JavaScript a page loads: every `<script type="module" src>` and
 * `<link rel="modulepreload" href>` of its HTML, then the chunks of the page
 * component named in the Inertia page object that the manifest says the entry
 * loads at run time (the component's file and its static imports not yet
 * counted). Each is fetched like a browser would; sizes are as sent.
 */
async function javascriptOf(html, base, manifest, cookie) {
  const urls = new Map()
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attribute = (name) =>
      new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag)
    const value = (name) => {
      const match = attribute(name)
      return match ? (match[2] ?? match[3]) : null
    }
    const isModuleScript = /^<script/i.test(tag) && value('type') === 'module' && value('src')
    const isPreload = /^<link/i.test(tag) && value('rel') === 'modulepreload' && value('href')
    if (isModuleScript) urls.set(new URL(value('src'), base).pathname, 'html')
    if (isPreload) urls.set(new URL(value('href'), base).pathname, 'html')
  }
  const component = inertiaPage(html)?.component
  if (component) {
    const key = Object.keys(manifest).find((name) => name.startsWith(`inertia/pages/${component}.`))
    const visit = (name) => {
      const chunk = manifest[name]
      if (!chunk) return
      const path = `/assets/${chunk.file}`
      if (urls.has(path)) return
      urls.set(path, 'lazy')
      for (const imported of chunk.imports ?? []) visit(imported)
    }
    if (key) visit(key)
  }
  const files = []
  for (const [path, source] of urls) {
    const response = await fetchOnce(new URL(path, base).href, { cookie, accept: '*/*' })
    if (response.status !== 200) throw new Error(`${path}: expected 200, got ${response.status}`)
    files.push({
      path,
      source,
      wireBytes: response.wireBytes,
      bodyBytes: response.body.length,
      decodedBytes: decode(response).length,
      encoding: response.headers['content-encoding'] ?? 'none',
      cacheControl: response.headers['cache-control'] ?? '',
    })
  }
  return {
    files,
    wireBytes: files.reduce((sum, file) => sum + file.wireBytes, 0),
    decodedBytes: files.reduce((sum, file) => sum + file.decodedBytes, 0),
  }
}

/**
 * What a real browser fetches for `url` (Debian's Chromium through
 * Playwright, as the browser tests; CHROMIUM_PATH overrides it): every
 * script response's bytes as sent (headers + body), counted once the page
 * is idle. Catches the chunks the entry imports at run time (catalogues,
 * antd locale) that neither the HTML nor the page's manifest entry names.
 * Resolves to {error} when no browser is available.
 */
async function browserJavascript(url) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath))
    return { error: `${executablePath} not found (set CHROMIUM_PATH, or BENCH_BROWSER=0)` }
  const { chromium } = await import('playwright')
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
  try {
    const context = await browser.newContext()
    const page = await context.newPage()
    const responses = []
    page.on('response', (response) => responses.push(response))
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 })
    let wireBytes = 0
    let allBytes = 0
    let files = 0
    let compressed = 0
    for (const response of responses) {
      const sizes = await response.request().sizes()
      const bytes = sizes.responseHeadersSize + sizes.responseBodySize
      allBytes += bytes
      if (response.request().resourceType() !== 'script') continue
      files++
      wireBytes += bytes
      if ((await response.allHeaders())['content-encoding']) compressed++
    }
    return { files, wireBytes, compressed, allBytes, requests: responses.length }
  } finally {
    await browser.close()
  }
}

/** The Inertia page object of a server-rendered page (JSON script or data-page attribute), or null. */
function inertiaPage(html) {
  const script = /<script\b[^>]*data-page[^>]*>([\s\S]*?)<\/script>/i.exec(html)
  if (script) return JSON.parse(script[1])
  const attribute = /\bdata-page="([^"]*)"/.exec(html)
  if (!attribute) return null
  const text = attribute[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
  return JSON.parse(text)
}

function log(message) {
  console.log(`bench: ${message}`)
}
