/**
 * Browser upload benchmark (bench/README.md): what a person waits for when
 * uploading a file through Tern's upload page in a real browser, against
 * what the same browser does with one streamed PUT of the same file to a
 * plain Node server. Both in one run, on loopback; prints the throughputs
 * and the ratio.
 *
 *   node_modules/.bin/node bench/browser_upload/run.js
 *   BENCH_SIZE_MB=200 BENCH_RUNS=3 node_modules/.bin/node bench/browser_upload/run.js
 *
 * It builds Tern as a production install runs it (bench/pages/build.js) or
 * reuses BENCH_BUILD_DIR, starts it like bench/pages (NODE_ENV=production,
 * SQLite and the local disk in a temporary DATA_DIR), signs up the admin and
 * sets share.maxSize and share.chunkSize through the admin API. The baseline
 * is a plain node:http server in this process that streams `PUT /put/<name>`
 * into a file with a 1 MiB write buffer (the baseline of bench/transfer) and
 * serves a blank page with a file input at `/` (same origin: Tern's page
 * policy would refuse a cross-origin request). Chromium (Debian's, the flags
 * of tests/helpers/browser.ts), signed in to Tern as the admin, `BENCH_RUNS`
 * times, alternating:
 * - baseline: the file picked in the blank page's input, sent by `fetch`
 *   in one PUT (timed in the page, request start to answer);
 * - Tern: the file picked in the upload page's own input, "Share", the
 *   modal's "Share", until the "Share ready" dialog (timed from the click:
 *   share creation, the chunk uploads as the page sends them, completion).
 * Both read the same file from disk through the browser (`File`, sliced),
 * so neither holds it in memory. The median of each and the ratio are
 * printed, with the CPU seconds Tern's processes spent per run.
 *
 * Environment (all optional):
 *   BENCH_SIZE_MB    file size in MB of 10^6 bytes (default 200)
 *   BENCH_CHUNK_MB   share.chunkSize in MB (default 10, Tern's default)
 *   BENCH_RUNS       rounds (default 3)
 *   BENCH_TIMEOUT_S  overall time limit (default 1800)
 *   BENCH_BUILD_DIR  a build made by `node bench/pages/build.js <dir>` (skips the build)
 *   BENCH_COMPARE_DIR a second build (e.g. of an older commit): started beside the first and
 *                    measured in the same rounds, so the two upload pages compare in one run
 *   BENCH_TMP        where temporary files go
 *   CHROMIUM_PATH    the browser (default /usr/bin/chromium)
 */
import { createWriteStream } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import http from 'node:http'
import { join } from 'node:path'
import { randomFillSync } from 'node:crypto'
import {
  cookiesOf,
  envNumber,
  expectStatus,
  freePort,
  startTernServer,
  treeCpuSeconds,
  withWorkDir,
} from '../lib/common.js'
import { buildTern } from '../pages/build.js'

const MiB = 1024 * 1024
const sizeBytes = Math.round(envNumber('BENCH_SIZE_MB', 200) * 1_000_000)
const chunkSize = Math.round(envNumber('BENCH_CHUNK_MB', 10) * 1_000_000)
const runs = envNumber('BENCH_RUNS', 3)
const timeoutSeconds = envNumber('BENCH_TIMEOUT_S', 1800)

await withWorkDir('tern-bench-browser-upload-', timeoutSeconds, async (work, children) => {
  const file = join(work, 'upload.bin')
  log(`writing a random file of ${sizeBytes.toLocaleString('en')} bytes…`)
  await writeRandomFile(file, sizeBytes)

  let buildDir = process.env.BENCH_BUILD_DIR
  if (!buildDir) {
    log('building Tern (tsc and vite, as `node ace build`)…')
    buildDir = buildTern(join(work, 'build'))
  }
  const terns = [{ label: 'Tern upload page', dir: buildDir }]
  if (process.env.BENCH_COMPARE_DIR)
    terns.push({ label: 'compared build', dir: process.env.BENCH_COMPARE_DIR })
  for (const [index, tern] of terns.entries()) {
    Object.assign(tern, await startTern(tern.dir, join(work, `tern-data-${index}`), children))
    tern.cookie = await prepareTern(tern.url)
  }
  const baseline = await startBaseline(join(work, 'baseline'))

  const { chromium } = await import('playwright')
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
  try {
    for (const tern of terns) {
      const context = await browser.newContext({ baseURL: tern.url })
      await context.addCookies(
        tern.cookie.split('; ').map((pair) => {
          const at = pair.indexOf('=')
          return { name: pair.slice(0, at), value: pair.slice(at + 1), url: tern.url }
        })
      )
      tern.page = await context.newPage()
      tern.seconds = []
      tern.cpu = []
    }
    const baselineSeconds = []
    for (let round = 0; round < runs; round++) {
      baselineSeconds.push(await baselineRound(terns[0].page, baseline.url, file, round))
      for (const tern of round % 2 ? [...terns].reverse() : terns) {
        const cpuBefore = treeCpuSeconds(tern.pid)
        tern.seconds.push(await ternRound(tern.page, file))
        tern.cpu.push(treeCpuSeconds(tern.pid) - cpuBefore)
      }
      log(
        `round ${round + 1}: one PUT ${mbps(baselineSeconds.at(-1))} MB/s, ` +
          terns.map((tern) => `${tern.label} ${mbps(tern.seconds.at(-1))} MB/s`).join(', ')
      )
    }
    print(baselineSeconds, terns)
  } finally {
    await browser.close()
    baseline.server.close()
  }
})

/** A file of `size` random bytes, written 1 MiB at a time. */
async function writeRandomFile(path, size) {
  const handle = await open(path, 'w')
  const buffer = Buffer.alloc(MiB)
  for (let written = 0; written < size; written += MiB) {
    const length = Math.min(MiB, size - written)
    randomFillSync(buffer, 0, length)
    await handle.write(buffer, 0, length)
  }
  await handle.close()
}

/** The baseline: plain node:http, `PUT /put/<name>` streamed to a file with 1 MiB buffers; `/` a page with a file input. */
async function startBaseline(dir) {
  await mkdir(dir, { recursive: true })
  const cors = {}
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') {
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><input type="file" id="bench-baseline-input">')
    }
    const match = /^\/put\/([\w.-]+)$/.exec(req.url ?? '')
    if (req.method !== 'PUT' || !match) return res.writeHead(404, cors).end()
    const out = createWriteStream(join(dir, match[1]), { highWaterMark: MiB })
    req.pipe(out)
    out.on('finish', () =>
      res.writeHead(201, { ...cors, 'content-type': 'application/json' }).end('{"ok":true}')
    )
    out.on('error', () => res.writeHead(500, cors).end())
  })
  server.keepAliveTimeout = 60_000
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${port}` }
}

/** One PUT of the file from the baseline's page (picked in its input), timed in the page. Returns seconds. */
async function baselineRound(page, baselineUrl, file, round) {
  await page.goto(`${baselineUrl}/`)
  await page.locator('#bench-baseline-input').setInputFiles(file)
  const seconds = await page.evaluate(async (url) => {
    const picked = document.getElementById('bench-baseline-input').files[0]
    const start = performance.now()
    const response = await fetch(url, {
      method: 'PUT',
      body: picked,
      headers: { 'content-type': 'application/octet-stream' },
    })
    await response.text()
    if (response.status !== 201) throw new Error(`baseline PUT: ${response.status}`)
    return (performance.now() - start) / 1000
  }, `/put/round-${round}.bin`)
  return seconds
}

/** One upload through Tern's upload page, from the modal's "Share" to the "Share ready" dialog. Returns seconds. */
async function ternRound(page, file) {
  await page.goto('/upload')
  await page.waitForSelector('html[data-hydrated]')
  await page.getByTestId('file-input').setInputFiles(file)
  await page.getByRole('button', { name: 'Share', exact: true }).click()
  const modal = page.getByRole('dialog')
  await modal.locator('input').first().waitFor()
  const start = Date.now()
  await modal.getByRole('button', { name: 'Share', exact: true }).click()
  await page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-modal-title').getByText('Share ready', { exact: true }) })
    .waitFor({ timeout: timeoutSeconds * 1000 })
  return (Date.now() - start) / 1000
}

function startTern(cwd, dataDir, children) {
  return startTernServer({ cwd, dataDir, children })
}

/** Signs up the admin, raises share.maxSize and sets share.chunkSize through the admin API; returns the cookie. */
async function prepareTern(url) {
  const signUp = await nodeRequest(`${url}/api/auth/signUp`, 'POST', {
    email: 'bench@example.com',
    username: 'bench',
    password: 'bench-password-1',
  })
  expectStatus(signUp, 201, 'sign up')
  const cookie = cookiesOf(signUp).join('; ')
  const config = await nodeRequest(
    `${url}/api/configs/admin`,
    'PATCH',
    [
      { key: 'share.maxSize', value: sizeBytes * 2 },
      { key: 'share.chunkSize', value: chunkSize },
    ],
    cookie
  )
  expectStatus(config, 200, 'admin config update')
  return cookie
}

/** A JSON request through node:http (its `headers` keep every Set-Cookie for `cookiesOf`). */
function nodeRequest(url, method, json, cookie) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(json))
    const headers = {
      'content-type': 'application/json',
      'content-length': payload.length,
      ...(cookie ? { cookie } : {}),
    }
    const req = http.request(url, { method, headers }, (res) => {
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

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function mbps(seconds) {
  return (sizeBytes / 1_000_000 / seconds).toFixed(0)
}

function print(baselineSeconds, terns) {
  const put = median(baselineSeconds)
  console.log('')
  console.log(
    `Browser upload benchmark: ${(sizeBytes / 1_000_000).toLocaleString('en')} MB, Chromium, ` +
      `Tern chunks of ${chunkSize.toLocaleString('en')} bytes, median of ${baselineSeconds.length}`
  )
  console.log(
    `  one PUT to plain Node (1 MiB buffers)      ${mbps(put).padStart(6)} MB/s  (${put.toFixed(2)} s)`
  )
  for (const tern of terns) {
    const seconds = median(tern.seconds)
    console.log(
      `  ${`${tern.label} (share → ready)`.padEnd(41)}  ${mbps(seconds).padStart(6)} MB/s  (${seconds.toFixed(2)} s), ` +
        `throughput ratio to one PUT ${(put / seconds).toFixed(2)}, Tern CPU ${median(tern.cpu).toFixed(2)} s per upload`
    )
  }
  if (terns.length === 2) {
    console.log(
      `  ratio ${terns[0].label} / ${terns[1].label}: ${(median(terns[1].seconds) / median(terns[0].seconds)).toFixed(2)}`
    )
  }
}

function log(message) {
  console.error(`bench: ${message}`)
}
