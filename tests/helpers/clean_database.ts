/**
 * Removes the rows that a test group committed outside a global transaction.
 *
 * Most groups run inside `testUtils.db().withGlobalTransaction()`, which the
 * in-process server shares, so nothing they write outlives them. Groups that
 * cannot (real Tern child processes on the run's database, bursts of
 * parallel requests that must commit, an outbox worked by other processes)
 * call this in `group.teardown`, so the groups after them start from the
 * same empty tables (a later test counting users or failed deliveries must
 * not see theirs). The configuration, the instance secrets and the schema
 * tables are kept: the run seeded them once. So are the stylesheets of server
 * renders (`ssr_stylesheets`): a cache the in-process server remembers having stored.
 */
import db from '@adonisjs/lucid/services/db'

const KEPT = new Set([
  'adonis_schema',
  'adonis_schema_versions',
  'config_variables',
  'instance_secrets',
  'ssr_stylesheets',
])

/**
 * Deletes every row of every other table. Tables are emptied in passes, so
 * that a child table refused because of a foreign key is emptied once its
 * parent rows are gone (no dialect-specific switch for the checks needed).
 */
export async function cleanCommittedData(): Promise<void> {
  const connection = db.connection()
  // PostgreSQL lists tables per schema and needs the schema named (Tern's tables are in `public`).
  const schemas = connection.dialect.name === 'postgres' ? ['public'] : undefined
  let pending = (await connection.getAllTables(schemas)).filter((table) => !KEPT.has(table))
  for (let pass = 0; pending.length > 0; pass++) {
    const refused: string[] = []
    let lastError: unknown
    for (const table of pending) {
      try {
        await connection.from(table).delete()
      } catch (error) {
        refused.push(table)
        lastError = error
      }
    }
    if (refused.length === pending.length || pass > pending.length) {
      throw new Error(`could not empty ${refused.join(', ')}`, { cause: lastError })
    }
    pending = refused
  }
}
