/**
 * Loaded into Tern by the transfer benchmark (`node --require`), never by the
 * app: counts the SQL statements better-sqlite3 runs (`run`/`get`/`all`/
 * `iterate` calls, by first keyword: SELECT, INSERT, UPDATE, BEGIN…; Tern keeps
 * prepared statements, so a prepare is not a statement) and the time spent preparing and running
 * them. better-sqlite3 is synchronous, so that time is event-loop time the
 * upload waits for. On SIGUSR2 it writes `{ dumps, counts, dbMs }` to
 * BENCH_QUERY_FILE.<pid> (synchronously); the benchmark signals before and after an
 * upload and takes the difference. Product code is not changed.
 */
'use strict'
const { createRequire } = require('node:module')
const { writeFileSync } = require('node:fs')
const { join } = require('node:path')

/** One file per process: with TERN_WORKERS > 1 each HTTP worker counts its own (bench/transfer sums them). */
const file = `${process.env.BENCH_QUERY_FILE}.${process.pid}`
const Database = createRequire(join(process.env.BENCH_ROOT, 'package.json'))('better-sqlite3')
const counts = {}
let ns = 0n
let dumps = 0
let statementPrototype

/** Wraps a synchronous method of a statement so that it counts as one statement run and its duration adds to `ns`. */
function timed(original) {
  return function (...args) {
    const kind = (/^\s*(\w+)/.exec(String(this.source))?.[1] ?? '?').toUpperCase()
    counts[kind] = (counts[kind] ?? 0) + 1
    const started = process.hrtime.bigint()
    try {
      return original.apply(this, args)
    } finally {
      ns += process.hrtime.bigint() - started
    }
  }
}

const prepare = Database.prototype.prepare
Database.prototype.prepare = function (sql, ...rest) {
  const started = process.hrtime.bigint()
  const statement = prepare.call(this, sql, ...rest)
  ns += process.hrtime.bigint() - started
  if (!statementPrototype) {
    statementPrototype = Object.getPrototypeOf(statement)
    for (const method of ['run', 'get', 'all', 'iterate']) {
      if (typeof statementPrototype[method] === 'function')
        statementPrototype[method] = timed(statementPrototype[method])
    }
  }
  return statement
}

process.on('SIGUSR2', () => {
  dumps += 1
  writeFileSync(file, JSON.stringify({ dumps, counts, dbMs: Number(ns) / 1e6 }))
})
