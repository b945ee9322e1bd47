/**
 * Several Tern "instances" for the fault suite: each runs what `npm start`
 * runs (`ace tern:migrate`, then the HTTP server) as real child processes, on
 * a database of their own that the test creates empty.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import { spawnTern, startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { TestRedisServer, waitFor } from '#tests/helpers/redis_server'

/** An empty database (and DATA_DIR) on this run's database server. */
export interface FreshDatabase {
  /** Environment pointing a child at it. */
  env: Record<string, string>
  /** Registers (once) and names a Lucid connection of this process to it. */
  connect(): string
  drop(): Promise<void>
}

/**
 * Creates an empty database of the run's kind: an SQLite file in a new
 * DATA_DIR, or a new database on the MySQL/PostgreSQL server (through the
 * run's own connection, which has the rights to create one).
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const connection = process.env.DB_CONNECTION ?? 'sqlite'
  const dataDir = mkdtempSync(join(tmpdir(), 'tern-instances-'))
  const name = `tern_fresh_${randomBytes(4).toString('hex')}`
  const quoted = connection === 'mysql' ? `\`${name}\`` : `"${name}"`
  if (connection === 'mysql') await db.rawQuery(`CREATE DATABASE ${quoted} CHARACTER SET utf8mb4`)
  if (connection === 'pg') await db.rawQuery(`CREATE DATABASE ${quoted}`)
  let connected = false
  return {
    env: {
      DATA_DIR: dataDir,
      DB_CONNECTION: connection,
      DB_DATABASE: connection === 'sqlite' ? 'tern.sqlite' : name,
    },
    connect() {
      if (!connected) {
        const base = db.manager.get(db.primaryConnectionName)!.config as any
        const target =
          connection === 'sqlite' ? { filename: join(dataDir, 'tern.sqlite') } : { database: name }
        db.manager.add(name, { ...base, connection: { ...base.connection, ...target } })
        connected = true
      }
      return name
    },
    async drop() {
      if (connected) await db.manager.close(name, true)
      if (connection === 'mysql') await db.rawQuery(`DROP DATABASE IF EXISTS ${quoted}`)
      if (connection === 'pg') await db.rawQuery(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** One instance: its migration run, then (when that succeeded) its server. */
export interface TernInstance {
  base: string
  migration: { code: number | null; output: string }
  server: RunningTern | null
}

/** Runs `ace tern:migrate` then the server, like `npm start`, with `env`. */
export async function startInstance(env: Record<string, string>): Promise<TernInstance> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const migration = await spawnTern(['ace.js', 'tern:migrate'], env, 120_000)
  if (migration.code !== 0) return { base, migration, server: null }
  const server = startTern(
    ['bin/server.ts'],
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    120_000
  )
  return { base, migration, server }
}

/** Resolves true once `base` answers /api/health 200, false if the server exited first. */
export async function becomesHealthy(instance: TernInstance, timeoutMs = 60_000): Promise<boolean> {
  const server = instance.server
  if (!server) return false
  let exited = false
  void server.exited.then(() => (exited = true))
  let healthy = false
  await waitFor(
    async () => {
      healthy = await fetch(`${instance.base}/api/health`).then(
        (r) => r.status === 200,
        () => false
      )
      return healthy || exited
    },
    timeoutMs,
    `${instance.base} to answer /api/health`
  )
  return healthy
}

/** What {@link serversOnFreshDatabase} gives a group's tests. */
export interface FreshServers {
  /** This test's fresh, migrated database. */
  readonly fresh: FreshDatabase
  /** An empty directory of this test (another instance's DATA_DIR). */
  readonly otherDir: string
  /** Starts the server (no migration) with `env` on a free port; stopped after the test. */
  serve(env: Record<string, string | undefined>): Promise<TernInstance & { server: RunningTern }>
}

/**
 * For a group whose tests start servers side by side: before each test a
 * fresh database migrated by `ace tern:migrate` and an empty directory
 * (`otherDirPrefix` in the temporary folder); after it the servers are
 * stopped and both removed.
 */
export function serversOnFreshDatabase(
  group: { each: { setup(handler: () => Promise<() => Promise<void>>): unknown } },
  otherDirPrefix: string
): FreshServers {
  let fresh: FreshDatabase | undefined
  let otherDir = ''
  let servers: RunningTern[] = []
  group.each.setup(async () => {
    fresh = await freshDatabase()
    otherDir = mkdtempSync(join(tmpdir(), otherDirPrefix))
    const migration = await spawnTern(['ace.js', 'tern:migrate'], fresh.env, 120_000)
    if (migration.code !== 0) throw new Error(migration.output)
    return async () => {
      await Promise.all(servers.map((server) => server.stop()))
      servers = []
      rmSync(otherDir, { recursive: true, force: true })
      await fresh!.drop()
    }
  })
  return {
    get fresh() {
      if (!fresh) throw new Error('serversOnFreshDatabase: no test is running')
      return fresh
    },
    get otherDir() {
      return otherDir
    },
    async serve(env) {
      const port = await freePort()
      const server = startTern(
        ['bin/server.ts'],
        { ...env, PORT: String(port), HOST: '127.0.0.1' },
        90_000
      )
      servers.push(server)
      return { base: `http://127.0.0.1:${port}`, server, migration: { code: 0, output: '' } }
    },
  }
}

/** A Tern server child with a redis-server of its own (see {@link startTernWithRedis}). */
export interface TernWithRedis {
  redis: TestRedisServer
  tern: RunningTern
  base: string
  /** Stops the server, then kills its Redis. */
  stop(): Promise<void>
}

/**
 * Starts a redis-server and a Tern server using it (`env` added), on this
 * run's database, and waits until `probe` (a path) answers 200; the error
 * then carries the server's output.
 */
export async function startTernWithRedis(
  probe: string,
  env: Record<string, string> = {}
): Promise<TernWithRedis> {
  const redis = await TestRedisServer.start()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const tern = startTern(
    ['bin/server.ts'],
    { PORT: String(port), HOST: '127.0.0.1', REDIS_URL: redis.url, ...env },
    90_000
  )
  await waitFor(
    () =>
      fetch(base + probe).then(
        (response) => response.status === 200,
        () => false
      ),
    40_000,
    `Tern to answer ${probe} 200`
  ).catch((error) => {
    throw new Error(`${error.message}\n${tern.output()}`)
  })
  return {
    redis,
    tern,
    base,
    async stop() {
      await tern.stop()
      await redis.stop('SIGKILL')
    },
  }
}
