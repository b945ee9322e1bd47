/**
 * One lock around the migrations of all Tern instances that share a database.
 * Lucid's own migration lock takes MySQL's GET_LOCK with
 * no wait and releases it through the pool, possibly on another connection:
 * a second instance starting at the same time exited ("unable to acquire /
 * release database lock") instead of waiting. Here every instance waits its
 * turn, holding the lock on one dedicated connection, then finds nothing
 * left to migrate. The lock dies with its holder (connection closed, or the
 * OS releasing the file lock), so a killed instance never blocks the others.
 */
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'

/** How long an instance waits for another one's migrations (seconds). */
export const MIGRATION_LOCK_WAIT_SECONDS = 600

const LOCK_NAME = 'tern:migrations:'
/** pg advisory-lock key: any constant bigint (advisory locks are per database). */
const PG_LOCK_KEY = '7366101011'

/** Raised when the lock could not be taken within the wait. */
export class MigrationLockTimeoutError extends Error {
  code = 'E_MIGRATION_LOCK_TIMEOUT'
  constructor(seconds: number) {
    super(
      `another Tern instance has been migrating this database for more than ${seconds} s; ` +
        'check that instance, then start this one again'
    )
  }
}

/** Options of `withMigrationLock`. */
export interface MigrationLockOptions {
  /** How long to wait for another instance (seconds). */
  seconds?: number
  /** The Lucid connection whose database is migrated (default: the primary one). */
  connectionName?: string
  /** Called once when another instance holds the lock, before waiting for it. */
  onWait?: () => void
}

type Resolved = Required<Omit<MigrationLockOptions, 'connectionName'>> & { connectionName: string }

/**
 * MySQL/MariaDB: GET_LOCK on the connection of an open transaction, released
 * on the same one. Lock names are global to the server, so the name carries
 * (a digest of) the database's: installations sharing a server do not wait
 * for each other.
 */
async function withMysqlLock<T>(work: () => Promise<T>, options: Resolved): Promise<T> {
  const name = `CONCAT(?, SHA1(DATABASE()))`
  const trx = await db.connection(options.connectionName).transaction()
  const take = async (seconds: number) => {
    const [rows] = await trx.rawQuery(`SELECT GET_LOCK(${name}, ?) AS acquired`, [
      LOCK_NAME,
      seconds,
    ])
    return Number(rows[0]?.acquired) === 1
  }
  try {
    if (!(await take(0))) {
      options.onWait()
      if (!(await take(options.seconds))) throw new MigrationLockTimeoutError(options.seconds)
    }
    try {
      return await work()
    } finally {
      await trx.rawQuery(`SELECT RELEASE_LOCK(${name})`, [LOCK_NAME])
    }
  } finally {
    await trx.commit()
  }
}

/** PostgreSQL: a transaction-level advisory lock (advisory locks are per database), released by the commit. */
async function withPgLock<T>(work: () => Promise<T>, options: Resolved): Promise<T> {
  const trx = await db.connection(options.connectionName).transaction()
  try {
    const { rows } = await trx.rawQuery(
      `SELECT pg_try_advisory_xact_lock(${PG_LOCK_KEY}) AS acquired`
    )
    if (!rows[0]?.acquired) {
      options.onWait()
      await trx.rawQuery(`SET LOCAL lock_timeout = '${options.seconds}s'`)
      try {
        await trx.rawQuery(`SELECT pg_advisory_xact_lock(${PG_LOCK_KEY})`)
      } catch (error) {
        if ((error as { code?: string }).code === '55P03')
          throw new MigrationLockTimeoutError(options.seconds)
        throw error
      }
    }
    return await work()
  } finally {
    await trx.commit()
  }
}

interface LockFile {
  exec(sql: string): void
  pragma(sql: string): unknown
  close(): void
}

const isBusy = (error: unknown) => (error as { code?: string }).code === 'SQLITE_BUSY'

/**
 * SQLite: an exclusive transaction on a lock file next to the database
 * (instances share it through the shared DATA_DIR). better-sqlite3 waits for
 * it synchronously, which is fine in the migration command.
 */
async function withSqliteLock<T>(
  work: () => Promise<T>,
  options: Resolved,
  filename: string
): Promise<T> {
  const moduleName = 'better-sqlite3'
  const { default: Database } = (await import(moduleName)) as {
    default: new (file: string, settings: { timeout: number }) => LockFile
  }
  const lock = new Database(`${filename}.migration-lock`, { timeout: 0 })
  try {
    try {
      lock.exec('BEGIN EXCLUSIVE')
    } catch (error) {
      if (!isBusy(error)) throw error
      options.onWait()
      lock.pragma(`busy_timeout = ${options.seconds * 1000}`)
      try {
        lock.exec('BEGIN EXCLUSIVE')
      } catch (retryError) {
        throw isBusy(retryError) ? new MigrationLockTimeoutError(options.seconds) : retryError
      }
    }
    try {
      return await work()
    } finally {
      lock.exec('COMMIT')
    }
  } finally {
    lock.close()
  }
}

/** Runs `work` (the migrations) while no other instance runs its own. */
export async function withMigrationLock<T>(
  work: () => Promise<T>,
  options: MigrationLockOptions = {}
): Promise<T> {
  const connectionName = options.connectionName ?? db.primaryConnectionName
  const resolved: Resolved = {
    seconds: options.seconds ?? MIGRATION_LOCK_WAIT_SECONDS,
    onWait: options.onWait ?? (() => {}),
    connectionName,
  }
  const connection = db.connection(connectionName)
  switch (connection.dialect.name) {
    case 'mysql':
      return withMysqlLock(work, resolved)
    case 'postgres':
      return withPgLock(work, resolved)
    case 'better-sqlite3':
    case 'sqlite3': {
      const config = db.manager.get(connectionName)?.config.connection as { filename?: string }
      const filename = config?.filename ?? join(process.env.DATA_DIR ?? '.', 'tern.sqlite')
      return withSqliteLock(work, resolved, filename)
    }
    default:
      return work()
  }
}
