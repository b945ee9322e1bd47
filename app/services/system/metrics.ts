/**
 * Prometheus metrics of /metrics, on a registry of their
 * own. Labels are bounded: route patterns (never raw URLs, which would carry
 * tokens and grow without limit), methods, statuses, fixed job and action
 * names. Per-process counters (requests, bytes, job runs, refusals) are
 * summed across instances by Prometheus; the gauges read from the database
 * at scrape time (uploads in progress, outbox) are the same on every
 * instance: aggregate them with max(), not sum().
 *
 * Module state on purpose, not an @inject() service: these counters belong to
 * the process (that is what Prometheus scrapes and sums), and prom-client
 * metrics exist once: a second set would throw on the same registry, or on a
 * new one count beside what /metrics answers. The module is the one instance
 * a container singleton would hold, without a container lookup on the path of
 * every request, and the tests read the same registry the app fills.
 *
 * With several HTTP workers (start/cluster.ts), /metrics answers for the
 * whole instance: the worker asks the primary, which collects every worker's
 * registry through prom-client's AggregatorRegistry (counters and histograms
 * summed; the database gauges, the same in every worker, by max).
 */
import cluster from 'node:cluster'
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client'
import { clusterMetrics } from '#start/cluster'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { transferTotals } from '#services/system/transfer_totals'

/** The registry /metrics answers. */
export const metricsRegistry = new Registry()
const registers = [metricsRegistry]

collectDefaultMetrics({ register: metricsRegistry, prefix: 'tern_' })

/** Requests answered, by method, route pattern and status. */
export const httpRequests = new Counter({
  name: 'tern_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
})

/** How long requests took until their answer was sent (bodies included). */
export const httpDuration = new Histogram({
  name: 'tern_http_request_duration_seconds',
  help: 'Time until the answer (body included) was sent, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
  registers,
})

/** Cleanup-job turns, by job and result (ran, skipped: another instance held it, failed). */
export const jobRuns = new Counter({
  name: 'tern_job_runs_total',
  help: 'Cleanup job turns by job and result (ran, skipped: another instance ran it, failed)',
  labelNames: ['job', 'result'] as const,
  registers,
})

/** Attempts refused with 429, by action and the limit that was reached. */
export const rateLimitRefusals = new Counter({
  name: 'tern_rate_limit_refusals_total',
  help: 'Attempts refused with 429, by action and limit (ip, identifier_ip, account, device)',
  labelNames: ['action', 'limit'] as const,
  registers,
})

new Counter({
  name: 'tern_upload_bytes_total',
  help: 'Bytes of upload chunks received by this instance',
  registers,
  collect() {
    this.reset()
    this.inc(transferTotals.uploaded)
  },
})

new Counter({
  name: 'tern_download_bytes_total',
  help: 'Bytes of file and zip downloads sent by this instance',
  registers,
  collect() {
    this.reset()
    this.inc(transferTotals.downloaded)
  },
})

/** Fills `gauge` with `rows` of {label, count}; a database error is logged and leaves it empty. */
async function fillFromDatabase(gauge: Gauge<string>, label: string, query: () => Promise<any[]>) {
  gauge.reset()
  try {
    for (const row of await query()) gauge.set({ [label]: String(row[label]) }, Number(row.count))
  } catch (error) {
    logger.warn({ err: error }, 'metrics: the %s counts could not be read', label)
  }
}

new Gauge({
  name: 'tern_uploads_in_progress',
  aggregator: 'max',
  help: 'Unfinished uploads (upload sessions) by state, in the whole installation',
  labelNames: ['state'] as const,
  registers,
  async collect() {
    await fillFromDatabase(this, 'state', () =>
      db.from('upload_sessions').select('state').count('* as count').groupBy('state')
    )
  },
})

new Gauge({
  name: 'tern_outbox_deliveries',
  aggregator: 'max',
  help: 'Notification outbox rows by status (pending: the depth; failed: given up), in the whole installation',
  labelNames: ['status'] as const,
  registers,
  async collect() {
    await fillFromDatabase(this, 'status', () =>
      db.from('notification_deliveries').select('status').count('* as count').groupBy('status')
    )
  },
})

if (cluster.isWorker) {
  // This worker answers the primary's collection with this registry (the listener is set up once).
  AggregatorRegistry.setRegistries([metricsRegistry])
  new AggregatorRegistry()
}

/** The Prometheus text of this instance: this process, or every worker of the cluster. */
export function instanceMetrics(): Promise<string> {
  return cluster.isWorker ? clusterMetrics() : metricsRegistry.metrics()
}
