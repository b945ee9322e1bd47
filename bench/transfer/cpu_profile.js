/**
 * Self time of a V8 `.cpuprofile` (written by `node --cpu-prof`), summed per
 * function and per package, optionally only for the samples taken inside
 * given time windows (the benchmark passes Tern's upload phases). Used by
 * run.js with BENCH_PROFILE=1; also on its own for a saved profile:
 *
 *   node_modules/.bin/node bench/transfer/cpu_profile.js <file.cpuprofile> [top=15]
 *
 * Sample times and the windows are both CLOCK_MONOTONIC microseconds (V8's
 * TimeTicks and `process.hrtime` read the same clock on Linux), so windows
 * measured in the benchmark's process select samples of Tern's.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Sums self time. `windows`: [[startUs, endUs]…] or null for the whole
 * profile. Returns { totalMs, sampledMs, functions: [{name, ms}], packages: [{name, ms}] }
 * sorted by time, where sampledMs is the time inside the windows.
 */
export function summarizeProfile(profile, windows = null) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const byFunction = new Map()
  const byPackage = new Map()
  const byArea = new Map()
  let time = profile.startTime
  let sampledUs = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0
    time += delta
    if (windows && !windows.some(([start, end]) => time >= start && time <= end)) continue
    const node = nodes.get(profile.samples[i])
    if (!node) continue
    sampledUs += delta
    const frame = node.callFrame
    const where = shortUrl(frame.url)
    const fn = `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta)
    const pkg = packageOf(frame)
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta)
    const area = areaOf(pkg, frame)
    byArea.set(area, (byArea.get(area) ?? 0) + delta)
  }
  const sorted = (map) =>
    [...map.entries()].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms)
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    sampledMs: sampledUs / 1000,
    functions: sorted(byFunction),
    packages: sorted(byPackage),
    areas: sorted(byArea),
  }
}

/** Where a frame's code lives: an npm package, a part of Node, Tern's own code, or a V8 pseudo-frame. */
export function packageOf(frame) {
  const url = frame.url ?? ''
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)'
  if (url.startsWith('node:')) {
    const path = url.slice(5).replace(/^internal\//, '')
    const first = path.split('/')[0].replace(/^_/, '').replace(/_.*$/, '')
    return `node:${first}`
  }
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) {
    const parts = url.slice(modules + 14).split('/')
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
  }
  const local = /\/(app|start|config|providers|plugins|bin|database)\/(.*)$/.exec(url)
  if (local) {
    const dirs = local[2].split('/').slice(0, -1).slice(0, 2)
    return `tern:${[local[1], ...dirs].join('/')}`
  }
  return url
}

const DATABASE = new Set([
  'better-sqlite3',
  'knex',
  '@adonisjs/lucid',
  'luxon',
  'tarn',
  'mysql2',
  'pg',
])

/**
 * Where an upload's time goes, in coarse areas: database (driver, query builder, ORM
 * and its dates), the HTTP request and framework around each chunk (Node's
 * http/net, AdonisJS, middleware, validation, Tern's own code), file writes
 * and streams (Node's fs and stream code, and native write calls), GC, idle.
 */
export function areaOf(pkg, frame) {
  if (pkg === '(idle)' || pkg === '(garbage collector)' || pkg === '(program)') return pkg
  if (DATABASE.has(pkg)) return 'database (better-sqlite3, knex, Lucid, luxon)'
  if (pkg === '(native)') {
    return /write|read|open|close|sync|copy/i.test(frame.functionName)
      ? 'file writes, streams, buffers (Node fs/streams/buffer, native I/O calls)'
      : 'other native calls'
  }
  if (['node:fs', 'node:streams', 'node:buffer', 'node:stream'].includes(pkg)) {
    return 'file writes, streams, buffers (Node fs/streams/buffer, native I/O calls)'
  }
  if (
    pkg.startsWith('@adonisjs/') ||
    pkg.startsWith('@poppinss/') ||
    pkg.startsWith('@vinejs/') ||
    pkg.startsWith('tern:')
  ) {
    return 'request handling: framework, middleware, validation, Tern code'
  }
  if (
    [
      'node:http',
      'node:net',
      'node:timers',
      'node:async',
      'node:process',
      'node:events',
      'node:url',
    ].includes(pkg)
  ) {
    return 'request handling: Node http/net, timers, events'
  }
  return 'other (crypto, other packages)'
}

function shortUrl(url) {
  if (!url) return ''
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) return url.slice(modules + 14)
  const local = /\/((?:app|start|config|providers|plugins|bin|database)\/.*)$/.exec(url)
  if (local) return local[1]
  return url.replace(/^file:\/\//, '')
}

/** Prints the top `top` functions and packages of a summary. */
export function printSummary(summary, top = 15, title = 'CPU profile') {
  const percent = (ms) => `${((ms / summary.sampledMs) * 100).toFixed(1).padStart(5)}%`
  console.log('')
  console.log(
    `${title}: ${(summary.sampledMs / 1000).toFixed(2)} s sampled (self time; "(idle)" = waiting)`
  )
  console.log('  by area (self time):')
  for (const { name, ms } of summary.areas) {
    console.log(`    ${ms.toFixed(0).padStart(7)} ms ${percent(ms)}  ${name}`)
  }
  console.log('  top packages / parts of Node (self time):')
  for (const { name, ms } of summary.packages.slice(0, top)) {
    console.log(`    ${ms.toFixed(0).padStart(7)} ms ${percent(ms)}  ${name}`)
  }
  console.log('  top functions (self time):')
  for (const { name, ms } of summary.functions.slice(0, top)) {
    console.log(`    ${ms.toFixed(0).padStart(7)} ms ${percent(ms)}  ${name}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '15'] = process.argv.slice(2)
  if (!file) {
    console.error('usage: node bench/transfer/cpu_profile.js <file.cpuprofile> [top]')
    process.exit(1)
  }
  printSummary(summarizeProfile(JSON.parse(readFileSync(file, 'utf8'))), Number(top), file)
}
