import { createRequire } from 'node:module'
import { test } from '@japa/runner'
import { cacheStatements } from '#services/database/statement_cache'

/** The part of better-sqlite3 (untyped in this project) the tests use. */
interface Statement {
  readonly source: string
  readonly busy: boolean
  run(...bindings: unknown[]): unknown
  get(...bindings: unknown[]): unknown
  all(...bindings: unknown[]): unknown[]
  iterate(...bindings: unknown[]): IterableIterator<unknown>
  safeIntegers(toggle?: boolean): Statement
}
interface Connection {
  readonly inTransaction: boolean
  exec(sql: string): void
  prepare(sql: string): Statement
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string
) => Connection

function open() {
  const connection = new Database(':memory:')
  connection.exec('create table t (id integer primary key, name text)')
  connection.prepare('insert into t (id, name) values (?, ?)').run(9007199254740993n, 'big')
  return connection
}

test.group('SQLite statement cache', () => {
  test('the same SQL text gets its kept statement; another text its own', ({ assert }) => {
    const connection = open()
    cacheStatements(connection)
    const first = connection.prepare('select name from t where id = ?')
    assert.strictEqual(connection.prepare('select name from t where id = ?'), first)
    assert.notStrictEqual(connection.prepare('select id from t where id = ?'), first)
    assert.deepEqual(first.all(9007199254740993n), [{ name: 'big' }])
  })

  test('rewrites before looking up (BEGIN; -> BEGIN IMMEDIATE;)', ({ assert }) => {
    const connection = open()
    cacheStatements(connection, { rewrite: (sql) => (sql === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : sql) })
    assert.equal(connection.prepare('BEGIN;').source, 'BEGIN IMMEDIATE;')
    connection.prepare('BEGIN;').run()
    assert.isTrue(connection.inTransaction)
    connection.prepare('COMMIT;').run()
  })

  test('a statement still iterating is not handed out again', ({ assert }) => {
    const connection = open()
    connection.prepare('insert into t (id, name) values (?, ?)').run(1, 'one')
    cacheStatements(connection)
    const sql = 'select name from t order by id'
    const iterating = connection.prepare(sql)
    const rows = iterating.iterate()
    rows.next()
    assert.isTrue(iterating.busy)
    const other = connection.prepare(sql)
    assert.notStrictEqual(other, iterating)
    assert.lengthOf(other.all(), 2)
    rows.return?.()
    assert.strictEqual(connection.prepare(sql), iterating, 'the kept one again once it is done')
  })

  test('a reused statement starts with safeIntegers off, whatever the previous query set', ({
    assert,
  }) => {
    const connection = open()
    cacheStatements(connection)
    const sql = 'select id from t where name = ?'
    connection.prepare(sql).safeIntegers(true)
    assert.equal(typeof (connection.prepare(sql).get('big') as { id: unknown }).id, 'number')
  })

  test('keeps at most `size` statements, the least recently used leave first', ({ assert }) => {
    const connection = open()
    const kept = cacheStatements(connection, { size: 2 })
    const a = connection.prepare('select 1')
    connection.prepare('select 2')
    connection.prepare('select 1') // used again: now the most recent
    connection.prepare('select 3') // "select 2" leaves
    assert.deepEqual([...kept.keys()], ['select 1', 'select 3'])
    assert.strictEqual(connection.prepare('select 1'), a)
  })

  test('a kept statement follows schema changes', ({ assert }) => {
    const connection = open()
    cacheStatements(connection)
    const sql = 'select * from t where name = ?'
    assert.deepEqual(Object.keys(connection.prepare(sql).get('big') as object), ['id', 'name'])
    connection.prepare('alter table t add column size integer').run()
    assert.deepEqual(Object.keys(connection.prepare(sql).get('big') as object), [
      'id',
      'name',
      'size',
    ])
  })
})
