/*
|--------------------------------------------------------------------------
| Cluster of HTTP workers (use every core)
|--------------------------------------------------------------------------
|
| Tern keeps no state in process memory that another instance needs
| (docs/operations.md, "Several instances"): jobs run under a lock, the outbox is claimed with leases,
| settings are read from the database on every call, rate limits and
| sessions live in the database or Redis. So one machine runs one HTTP
| worker per core on the same port (node:cluster): TERN_WORKERS workers.
| TERN_WORKERS=1 is the single process of before, with no primary.
|
| The default (TERN_WORKERS unset) is measured, not assumed (bench/README.md,
| 2 cores): in production with MySQL or PostgreSQL, as many as the cores (at
| most DEFAULT_MAX_WORKERS); with SQLite (the default database) and outside
| production, 1. On SQLite two workers served the share page 1.4x faster
| (892 vs 654 req/s) but uploaded a 1 GiB file at 0.48 of one streamed PUT
| instead of 0.69 (SQLite takes one writer at a time: the other process
| waits in its busy handler), with twice the memory (439 vs 199 MiB peak);
| an operator who wants the page throughput sets TERN_WORKERS.
|
| The primary stays small: it prepares the environment once (DATA_DIR, the
| generated APP_KEY, so workers do not race writing it), validates it
| (start/env.ts), forks the workers with its own Node flags
| (scripts/server_flags.js reach them through execArgv), restarts a worker
| that dies with a growing back-off, stops at once with exit code 1 and one
| line when a worker reports that its start failed (port in use, bad
| configuration: every worker would fail alike; start/start_failure.ts),
| gives up when workers keep dying before they listen, turns
| SIGTERM/SIGINT into a graceful stop of every worker (in-flight requests
| finish) and exits when the last one did. It also answers the workers'
| requests for the metrics of the whole instance (prom-client's
| AggregatorRegistry only aggregates in the primary).
|
| Written on node:cluster directly: the supervisors on npm (pm2, throng…)
| are process managers of their own or unmaintained; what Tern needs is the
| ~150 lines below.
|
*/
import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'
import { printStartFailure, START_FAILED_MESSAGE } from '#start/start_failure'

/** Default worker count when TERN_WORKERS is unset: the cores, at most this many. */
export const DEFAULT_MAX_WORKERS = 8
/** Largest TERN_WORKERS accepted. */
export const MAX_WORKERS = 64

/** Message a worker sends for the metrics of the whole instance, and the primary's answer. */
export const METRICS_REQUEST = 'tern:cluster-metrics-req'
export const METRICS_RESPONSE = 'tern:cluster-metrics-res'

/**
 * TERN_WORKERS read and checked (used by start/env.ts too, so a bad value
 * stops the start with a message naming the variable). Unset or empty: the
 * cores (capped) in production on MySQL or PostgreSQL, 1 on SQLite (the
 * default DB_CONNECTION) or outside production (see the module comment).
 */
export function parseWorkers(
  key: string,
  value: string | undefined,
  { nodeEnv, dbConnection }: { nodeEnv: string | undefined; dbConnection: string | undefined } = {
    nodeEnv: process.env.NODE_ENV,
    dbConnection: process.env.DB_CONNECTION,
  }
): number {
  if (value === undefined || value.trim() === '') {
    const serverDatabase = dbConnection === 'mysql' || dbConnection === 'pg'
    return nodeEnv === 'production' && serverDatabase
      ? Math.max(1, Math.min(availableParallelism(), DEFAULT_MAX_WORKERS))
      : 1
  }
  const count = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) {
    throw new Error(
      `Value for environment variable "${key}" must be a whole number of HTTP workers from 1 to ${MAX_WORKERS}, instead received "${value}"`
    )
  }
  return count
}

interface ClusterLogger {
  info(message: string, ...values: unknown[]): void
  warn(message: string, ...values: unknown[]): void
  error(message: string, ...values: unknown[]): void
}

/** Back-off before restarting a worker: 1 s, doubled per crash in the last minute, at most 30 s. */
function restartDelay(recentCrashes: number) {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, recentCrashes - 1))
}

/**
 * Runs the primary: forks `count` workers of this same script and supervises
 * them (see the module comment). Resolves never; the process exits when the
 * workers are gone.
 */
export function runPrimary(count: number, logger: ClusterLogger) {
  cluster.setupPrimary({ execArgv: process.execArgv })
  const listened = new WeakSet<Worker>()
  const crashes: number[] = []
  const restartTimers = new Set<NodeJS.Timeout>()
  let startFailures = 0
  let shuttingDown = false
  let failedExit = false

  const fork = () => {
    const worker = cluster.fork()
    worker.on('listening', () => {
      listened.add(worker)
      startFailures = 0
    })
    return worker
  }

  const alive = () =>
    Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => !!worker && !worker.isDead()
    )

  const finishIfDone = () => {
    if (alive().length === 0 && restartTimers.size === 0) {
      process.exit(failedExit ? 1 : 0)
    }
  }

  const stopAll = (signal: NodeJS.Signals) => {
    shuttingDown = true
    for (const timer of restartTimers) clearTimeout(timer)
    restartTimers.clear()
    for (const worker of alive()) worker.process.kill(signal)
    finishIfDone()
  }

  /**
   * A worker's start failed: the others would fail alike, so the primary
   * prints the worker's line once and exits 1 without waiting for them. A
   * worker that does not listen serves nothing, so it is killed; one that
   * listens finishes its requests (SIGTERM).
   */
  const giveUp = (line: string) => {
    if (shuttingDown) return
    printStartFailure(line)
    failedExit = true
    shuttingDown = true
    for (const timer of restartTimers) clearTimeout(timer)
    restartTimers.clear()
    const serving = alive().filter((worker) => listened.has(worker))
    for (const worker of alive())
      worker.process.kill(serving.includes(worker) ? 'SIGTERM' : 'SIGKILL')
    // A killed worker is gone for sure: wait only for those finishing requests.
    if (serving.length === 0) process.exit(1)
    finishIfDone()
  }

  cluster.on('exit', (worker, code, signal) => {
    if (shuttingDown) {
      if (code !== 0 && code !== null) failedExit = true
      finishIfDone()
      return
    }
    const how = signal ? `signal ${signal}` : `code ${code}`
    if (!listened.has(worker)) {
      startFailures++
      if (startFailures > count) {
        logger.error(
          'tern: HTTP workers keep dying before they listen (%d in a row, the last with %s): giving up; see the errors above',
          startFailures,
          how
        )
        failedExit = true
        stopAll('SIGTERM')
        return
      }
    }
    const now = Date.now()
    crashes.push(now)
    while (crashes.length && crashes[0] < now - 60_000) crashes.shift()
    const delay = restartDelay(crashes.length)
    logger.warn(
      'tern: HTTP worker %d (pid %d) exited with %s; starting another in %d ms',
      worker.id,
      worker.process.pid,
      how,
      delay
    )
    const timer = setTimeout(() => {
      restartTimers.delete(timer)
      if (!shuttingDown) fork()
    }, delay)
    restartTimers.add(timer)
  })

  cluster.on('message', (_worker, message) => {
    if (message?.type === START_FAILED_MESSAGE) giveUp(String(message.line))
  })

  // Metrics of the whole instance for the worker answering /metrics.
  cluster.on('message', (worker, message) => {
    if (message?.type !== METRICS_REQUEST) return
    void (async () => {
      try {
        const { AggregatorRegistry } = await import('prom-client')
        aggregator ??= new AggregatorRegistry()
        const text = await aggregator.clusterMetrics()
        if (worker.isConnected()) worker.send({ type: METRICS_RESPONSE, id: message.id, text })
      } catch (error) {
        if (worker.isConnected())
          worker.send({ type: METRICS_RESPONSE, id: message.id, error: (error as Error).message })
      }
    })()
  })
  let aggregator: import('prom-client').AggregatorRegistry<any> | undefined

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (shuttingDown) {
        // A second signal: stop waiting for in-flight requests.
        for (const worker of alive()) worker.process.kill('SIGKILL')
        return
      }
      logger.info(
        'tern: %s received, stopping %d HTTP workers (in-flight requests finish)',
        signal,
        alive().length
      )
      stopAll('SIGTERM')
    })
  }

  logger.info('tern: starting %d HTTP workers (TERN_WORKERS)', count)
  for (let index = 0; index < count; index++) fork()
}

/**
 * In a worker: the primary stops workers with SIGTERM (forwarded from its own
 * SIGTERM or SIGINT), so a Ctrl-C that reaches the whole process group is left
 * to the primary instead of killing the worker mid-request. The IPC channel
 * to the primary does not keep the worker alive (node:cluster's own listeners
 * would): once the app terminated and its server closed, the worker exits as
 * the single process does. It still exits when the primary dies (cluster).
 */
export function prepareWorker() {
  process.on('SIGINT', () => {})
  process.channel?.unref()
}

/** In a worker: the metrics of every worker aggregated by the primary (Prometheus text). */
export function clusterMetrics(timeoutMs = 10_000): Promise<string> {
  const id = `${process.pid}:${++metricsRequests}`
  return new Promise((resolve, reject) => {
    const onMessage = (message: any) => {
      if (message?.type !== METRICS_RESPONSE || message.id !== id) return
      clearTimeout(timer)
      process.off('message', onMessage)
      if (message.error) reject(new Error(`cluster metrics: ${message.error}`))
      else resolve(message.text)
    }
    const timer = setTimeout(() => {
      process.off('message', onMessage)
      reject(new Error('cluster metrics: the primary did not answer'))
    }, timeoutMs)
    process.on('message', onMessage)
    process.send!({ type: METRICS_REQUEST, id })
  })
}
let metricsRequests = 0
