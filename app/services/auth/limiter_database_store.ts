/**
 * The limiter's database store (table `rate_limits`) on Tern's primary Lucid
 * connection, resolving the knex client at every operation instead of once:
 *
 * - SQLite has a single connection, so while a (test) global transaction
 *   holds it, the counters must go through that transaction (they are rolled
 *   back with it); a client captured once would be a finished transaction
 *   later on.
 * - MySQL/PostgreSQL have a pool, and the limiter runs its own BEGIN/COMMIT:
 *   it must never run inside another transaction, so it always uses the pool.
 *
 * In production no global transaction exists and both resolve to the plain
 * connection.
 */
import { configProvider } from '@adonisjs/core'
import type { Database } from '@adonisjs/lucid/database'
import type { LimiterManagerStoreFactory } from '@adonisjs/limiter/types'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** Options of `databaseLimiterStore`. */
export interface DatabaseLimiterStoreOptions {
  tableName: string
  connectionName?: string
}

const SQLITE_DIALECTS = new Set(['sqlite3', 'better-sqlite3'])

/** The knex instance the limiter must use right now (see the module comment). */
function currentKnex(db: Database, name: string) {
  const client = db.connection(name)
  if (SQLITE_DIALECTS.has(client.dialect.name)) return client.getWriteClient()
  const node = db.manager.get(name)
  return node?.connection?.client ?? client.getWriteClient()
}

/** A stand-in for a knex instance that forwards every access to `currentKnex`. */
function knexFacade(db: Database, name: string) {
  return new Proxy(
    {},
    {
      get(_target, property) {
        const knex = currentKnex(db, name) as unknown as Record<PropertyKey, unknown>
        const value = Reflect.get(knex, property)
        return typeof value === 'function' ? (value as Function).bind(knex) : value
      },
    }
  )
}

/** The limiter store factory for `config/limiter.ts` (use it in place of `stores.database`). */
export function databaseLimiterStore(options: DatabaseLimiterStoreOptions) {
  return configProvider.create<LimiterManagerStoreFactory>(async (app) => {
    const db = (await app.container.make('lucid.db')) as Database
    const { default: LimiterDatabaseStore } = await import('@adonisjs/limiter/stores/database')
    const name = options.connectionName ?? db.primaryConnectionName
    const node = db.manager.get(name)
    if (!node) throw new Error(`Unknown database connection "${name}" in config/limiter.ts`)
    const connection = node.config.connection
    const dbName =
      connection && typeof connection === 'object' && 'database' in connection
        ? (connection.database as string | undefined)
        : undefined
    const facade = knexFacade(db, name)
    const client = {
      get dialect() {
        return db.connection(name).dialect
      },
      getWriteClient: () => facade,
    } as unknown as QueryClientContract
    return (consumption) =>
      new LimiterDatabaseStore(client, {
        tableName: options.tableName,
        dbName,
        ...consumption,
      })
  })
}
