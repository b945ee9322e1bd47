/**
 * Reading a Pingvin Share data folder (docs/design/pingvin_import.md §1, §8).
 * The database is never opened in place: `pingvin-share.db` and any
 * `-wal`/`-shm`/`-journal` beside it are copied to a temporary folder and
 * the copy is opened read-only, so neither the import nor SQLite (WAL
 * recovery, locks) can change the source. Columns are introspected: older
 * sources lack `name`, `simplified`, `publicAccess`, `ldapDN`,
 * `storageProvider` or the `OAuthUser` table, and those read as missing.
 */
import { createHash } from 'node:crypto'
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The part of better-sqlite3 (untyped in this project) the reader uses. */
interface SqliteStatement {
  all(...params: unknown[]): unknown[]
  get(...params: unknown[]): unknown
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement
  close(): void
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean }
) => SqliteDatabase

/** A row as better-sqlite3 returns it. */
export type PingvinRow = Record<string, unknown>

/** Where the Pingvin data lives. */
export interface PingvinPaths {
  /** The SQLite file (`pingvin-share.db`). */
  db: string
  /** The uploads folder (holding `shares/<shareId>/<fileId>`). */
  uploads: string
}

/** A source that cannot be imported at all (missing file, unfinished migration, not a Pingvin database). */
export class PingvinSourceError extends Error {}

/** The paths of a Pingvin data folder: `<dir>/pingvin-share.db` and `<dir>/uploads`. */
export function pathsOfDataFolder(dir: string): PingvinPaths {
  return { db: join(dir, 'pingvin-share.db'), uploads: join(dir, 'uploads') }
}

/** An open, read-only copy of a Pingvin database. */
export class PingvinSource {
  #db: SqliteDatabase
  #copyDir: string
  #columns = new Map<string, Set<string>>()

  private constructor(db: SqliteDatabase, copyDir: string) {
    this.#db = db
    this.#copyDir = copyDir
  }

  /** Copies the database (with its journal files) to a temporary folder and opens the copy read-only. */
  static async open(dbPath: string): Promise<PingvinSource> {
    try {
      const info = await stat(dbPath)
      if (!info.isFile()) throw new PingvinSourceError(`${dbPath} is not a file`)
    } catch (error) {
      if (error instanceof PingvinSourceError) throw error
      throw new PingvinSourceError(
        `cannot read the Pingvin database ${dbPath}: ${(error as Error).message}`
      )
    }
    const copyDir = await mkdtemp(join(tmpdir(), 'tern-pingvin-'))
    try {
      const copy = join(copyDir, 'pingvin-share.db')
      await copyFile(dbPath, copy)
      for (const suffix of ['-wal', '-shm', '-journal']) {
        await copyFile(dbPath + suffix, copy + suffix).catch((error) => {
          if (error.code !== 'ENOENT') throw error
        })
      }
      // The journal files are copied too, so pages a running Pingvin committed to its WAL are seen.
      const db = new Database(copy, { readonly: true, fileMustExist: true })
      const source = new PingvinSource(db, copyDir)
      source.#check()
      return source
    } catch (error) {
      await rm(copyDir, { recursive: true, force: true })
      if (error instanceof PingvinSourceError) throw error
      throw new PingvinSourceError(
        `cannot open the Pingvin database ${dbPath}: ${(error as Error).message}`
      )
    }
  }

  #check() {
    for (const table of ['User', 'Share', 'File']) {
      if (!this.hasTable(table))
        throw new PingvinSourceError(`not a Pingvin Share database: table ${table} is missing`)
    }
    if (this.hasTable('_prisma_migrations')) {
      const bad = this.#db
        .prepare(
          'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL OR rolled_back_at IS NOT NULL'
        )
        .all() as { migration_name: string }[]
      if (bad.length > 0) {
        throw new PingvinSourceError(
          `the Pingvin database has an unfinished or rolled-back migration (${bad.map((row) => row.migration_name).join(', ')}): start Pingvin once so it finishes, then import`
        )
      }
    }
  }

  /** The name of the last applied Prisma migration, or null. */
  schemaLevel(): string | null {
    if (!this.hasTable('_prisma_migrations')) return null
    const row = this.#db
      .prepare(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1'
      )
      .get() as { migration_name: string } | undefined
    return row?.migration_name ?? null
  }

  hasTable(table: string): boolean {
    return this.columns(table).size > 0
  }

  /** The column names of `table` (empty when the table does not exist). */
  columns(table: string): Set<string> {
    let columns = this.#columns.get(table)
    if (!columns) {
      const rows = this.#db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as {
        name: string
      }[]
      columns = new Set(rows.map((row) => row.name))
      this.#columns.set(table, columns)
    }
    return columns
  }

  /** Every row of `table` ([] when it does not exist), ordered by `orderBy` when that column exists. */
  rows(table: string, orderBy = 'createdAt'): PingvinRow[] {
    const columns = this.columns(table)
    if (columns.size === 0) return []
    const order = columns.has(orderBy) ? ` ORDER BY "${orderBy}", rowid` : ' ORDER BY rowid'
    return this.#db.prepare(`SELECT * FROM "${table}"${order}`).all() as PingvinRow[]
  }

  /**
   * The identity of the Pingvin instance: sha256 of its JWT secret (unique
   * and stable per instance), else of the earliest user's id and creation.
   */
  sourceId(): string {
    let seed: string | null = null
    if (this.hasTable('Config')) {
      const row = this.#db
        .prepare(
          `SELECT value, defaultValue FROM Config WHERE category = 'internal' AND name = 'jwtSecret'`
        )
        .get() as { value: string | null; defaultValue: string | null } | undefined
      const secret = row?.value || row?.defaultValue
      if (secret) seed = `pingvin:${secret}`
    }
    if (!seed) {
      const user = this.#db
        .prepare('SELECT id, createdAt FROM User ORDER BY createdAt, rowid LIMIT 1')
        .get() as { id: string; createdAt: unknown } | undefined
      seed = `pingvin-user:${user?.id ?? ''}:${String(user?.createdAt ?? '')}`
    }
    return createHash('sha256').update(seed, 'utf8').digest('hex')
  }

  /** Closes the database and removes the temporary copy. */
  async close(): Promise<void> {
    this.#db.close()
    await rm(this.#copyDir, { recursive: true, force: true })
  }
}
