/**
 * Each test run gets its own, fresh database and DATA_DIR, created before the
 * application boots and removed after the run:
 * - sqlite: a file in a temporary DATA_DIR;
 * - mysql / pg: a database `tern_test_<random>` on the configured server
 *   (default 127.0.0.1, root / postgres with an empty password).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'

/**
 * Asks the OS for a free TCP port on loopback.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface TestDatabase {
  connection: 'sqlite' | 'mysql' | 'pg'
  name: string
  dataDir: string
  drop(): Promise<void>
}

async function adminQuery(connection: 'mysql' | 'pg', sql: string) {
  if (connection === 'mysql') {
    const mysql = await import('mysql2/promise')
    const conn = await mysql.createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER ?? 'root',
      password: process.env.DB_PASSWORD ?? '',
    })
    try {
      await conn.query(sql)
    } finally {
      await conn.end()
    }
    return
  }
  const { default: pg } = await import('pg')
  const client = new pg.Client({
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USER ?? 'postgres',
    password: process.env.DB_PASSWORD ?? '',
    database: 'postgres',
  })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Creates the run's database and DATA_DIR and points the environment at them.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const connection = (process.env.DB_CONNECTION ?? 'sqlite') as TestDatabase['connection']
  const dataDir = process.env.TEST_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'tern-test-'))
  process.env.DATA_DIR = dataDir
  const name = `tern_test_${randomBytes(4).toString('hex')}`

  if (connection === 'mysql') {
    await adminQuery(
      'mysql',
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
    )
    process.env.DB_DATABASE = name
  } else if (connection === 'pg') {
    await adminQuery('pg', `CREATE DATABASE "${name}"`)
    process.env.DB_DATABASE = name
  } else {
    process.env.DB_DATABASE = 'tern.sqlite'
  }

  return {
    connection,
    name,
    dataDir,
    async drop() {
      if (connection === 'mysql') await adminQuery('mysql', `DROP DATABASE IF EXISTS \`${name}\``)
      if (connection === 'pg')
        await adminQuery('pg', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      if (!process.env.TEST_DATA_DIR) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
