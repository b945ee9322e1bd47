import env from '#start/env'
import { join } from 'node:path'
import { defineConfig } from '@adonisjs/lucid'
import { rejectFailedCommits } from '#services/database/commit_failures'
import { cacheStatements } from '#services/database/statement_cache'

/** A COMMIT the database refused (disk full) fails the transaction instead of passing as saved. */
rejectFailedCommits()

/**
 * SQLite (a file under DATA_DIR) by default; MySQL/MariaDB and PostgreSQL for
 * real deployments, chosen by DB_CONNECTION. The same migrations run on all three.
 */
const migrations = { naturalSort: true, paths: ['database/migrations'] }

/**
 * knex prefixes a failed query's error message with its SQL; by default
 * compiled with the bound values (password and token hashes, e-mails),
 * which would reach the logs. Keep the placeholders instead (knex's
 * `compileSqlOnError`, not in Lucid's types); the logger strips the rest
 * (#services/logging/redaction).
 */
const errorsWithoutValues = { compileSqlOnError: false } as {}

const dbConfig = defineConfig({
  connection: env.get('DB_CONNECTION') ?? 'sqlite',
  prettyPrintDebugQueries: false,
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      ...errorsWithoutValues,
      connection: {
        filename: join(env.get('DATA_DIR'), env.get('DB_DATABASE') ?? 'tern.sqlite'),
      },
      useNullAsDefault: true,
      /**
       * WAL lets readers run while a chunk is being recorded, and
       * synchronous=NORMAL syncs at checkpoints instead of on every commit
       * (still durable against a process crash). better-sqlite3 is
       * synchronous, so each sync would otherwise block the event loop.
       */
      /**
       * Several processes write to the file (HTTP workers of start/cluster.ts,
       * instances on one host): a writer waits up to busy_timeout for the
       * write lock instead of failing at once. Transactions begin IMMEDIATE
       * (knex sends a plain, deferred `BEGIN;`, with no option to change it):
       * a deferred one that reads, then writes after another process
       * committed, fails with SQLITE_BUSY at once, without waiting; taking
       * the write lock at BEGIN makes it wait its turn. Transactions are short
       * (no file I/O inside), so the wait, which blocks that process's event
       * loop like every better-sqlite3 call, stays short too.
       */
      pool: {
        afterCreate: (connection: any, done: (error: Error | null, connection: any) => void) => {
          connection.pragma('journal_mode = WAL')
          connection.pragma('synchronous = NORMAL')
          connection.pragma('foreign_keys = ON')
          connection.pragma('busy_timeout = 5000')
          // Prepared statements are kept per connection (#services/database/statement_cache).
          cacheStatements(connection, {
            rewrite: (sql) => (sql === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : sql),
          })
          done(null, connection)
        },
      },
      migrations,
    },
    mysql: {
      client: 'mysql2',
      ...errorsWithoutValues,
      connection: {
        host: env.get('DB_HOST') ?? '127.0.0.1',
        port: env.get('DB_PORT') ?? 3306,
        user: env.get('DB_USER') ?? 'root',
        password: env.get('DB_PASSWORD') ?? '',
        database: env.get('DB_DATABASE') ?? 'tern',
        charset: 'utf8mb4',
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: true,
      },
      migrations,
    },
    pg: {
      client: 'pg',
      ...errorsWithoutValues,
      connection: {
        host: env.get('DB_HOST') ?? '127.0.0.1',
        port: env.get('DB_PORT') ?? 5432,
        user: env.get('DB_USER') ?? 'postgres',
        password: env.get('DB_PASSWORD') ?? '',
        database: env.get('DB_DATABASE') ?? 'tern',
      },
      migrations,
    },
  },
})

export default dbConfig
