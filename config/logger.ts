import cluster from 'node:cluster'
import { hostname } from 'node:os'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination, targets } from '@adonisjs/core/logger'
import { redactLogArguments, serializeError } from '#services/logging/redaction'

/**
 * Structured JSON logs (pino) with the request id of each HTTP request.
 * Pretty-printed in development, silent by default in tests. Secrets in
 * URLs and the bound values of SQL errors never reach a log line: every
 * `err` and every message passes through #services/logging/redaction.
 */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'tern',
      level: env.get('LOG_LEVEL') ?? (app.inTest ? 'silent' : 'info'),
      /** In an HTTP worker of the cluster (start/cluster.ts), each line also names the worker. */
      ...(cluster.isWorker
        ? { base: { pid: process.pid, hostname: hostname(), worker: cluster.worker!.id } }
        : {}),
      serializers: { err: serializeError },
      hooks: {
        logMethod(args, method) {
          return method.apply(this, redactLogArguments(args) as Parameters<typeof method>)
        },
      },
      /**
       * Development: pino-pretty in a transport (its worker thread). Elsewhere
       * JSON lines straight to stdout from this thread (pino.destination,
       * asynchronous, flushed on exit): a transport's worker thread is a second
       * Node environment, ~16 MiB of resident memory in every process for
       * writing to a file descriptor (RSS at start 167 -> 151 MiB, bench/README.md).
       */
      ...(app.inDev
        ? { transport: { targets: targets().push(targets.pretty()).toArray() } }
        : { destination: destination({ dest: 1, sync: false }) }),
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
