/**
 * Prepared statements kept per SQLite connection (better-sqlite3). knex
 * prepares every query again, and SQLite's parsing and planning is most of
 * what a short query costs: for an upload chunk's joined lookup 88 us to
 * prepare against ~5-40 us to run (bench/README.md). The same SQL
 * text reuses its statement instead.
 *
 * Safe with knex's better-sqlite3 client: it runs each statement to its end
 * synchronously (`all`/`run`, never an open iterator), so a statement is
 * never in use when it is handed out again; one still busy (an iterator
 * left open by other code) is not reused. SQLite prepares a statement again
 * by itself when the schema changed (migrations). The least recently used
 * statements leave once `size` are kept (queries with `IN` lists of every
 * length make many texts).
 */

/** The part of a better-sqlite3 statement the cache touches. */
interface CachedStatement {
  readonly busy: boolean
  safeIntegers(toggle?: boolean): unknown
}

/** The part of a better-sqlite3 connection the cache wraps. */
interface PreparingConnection {
  prepare(sql: string): CachedStatement
}

/**
 * Makes `connection.prepare` answer a kept statement for a SQL text it
 * prepared before (`rewrite` first maps the text, e.g. `BEGIN;` to `BEGIN
 * IMMEDIATE;`). Returns the cache (tests look at its size).
 */
export function cacheStatements(
  connection: PreparingConnection,
  {
    size = 200,
    rewrite = (sql: string) => sql,
  }: { size?: number; rewrite?: (sql: string) => string } = {}
): Map<string, CachedStatement> {
  const prepare = connection.prepare.bind(connection)
  const statements = new Map<string, CachedStatement>()
  connection.prepare = (sql: string) => {
    const text = rewrite(sql)
    const kept = statements.get(text)
    if (kept && !kept.busy) {
      // Most recently used last; knex sets safeIntegers only when a query asks, so a reused one starts from the default.
      statements.delete(text)
      statements.set(text, kept)
      kept.safeIntegers(false)
      return kept
    }
    const statement = prepare(text)
    if (kept) return statement
    statements.set(text, statement)
    if (statements.size > size) statements.delete(statements.keys().next().value!)
    return statement
  }
  return statements
}
