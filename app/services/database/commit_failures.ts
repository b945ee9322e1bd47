/**
 * Failed COMMITs must fail the transaction (a full disk fails them). knex runs
 * COMMIT through `Transaction#query`, which catches the driver's error and
 * only rejects the transaction's execution promise; the promise returned by
 * `commit()` resolves anyway. Lucid awaits that promise, so a COMMIT that
 * SQLite refused with SQLITE_FULL was answered 201 while nothing was saved
 * (and SQLite may leave the transaction open on the pooled connection, where
 * every later write then silently joins it). Here `commit()` (and RELEASE
 * SAVEPOINT) reject with the driver's error, so Lucid rolls back and the
 * caller sees the failure.
 */
import { createRequire } from 'node:module'

interface KnexTransaction {
  _rejecter: (error: unknown) => void
  query(conn: unknown, sql: string, status?: number, value?: unknown): Promise<unknown>
}

let installed = false

/** Patches knex's Transaction once per process. */
export function rejectFailedCommits() {
  if (installed) return
  installed = true
  const Transaction = createRequire(import.meta.url)('knex/lib/execution/transaction.js') as {
    prototype: KnexTransaction
  }
  const query = Transaction.prototype.query
  Transaction.prototype.query = function (this: KnexTransaction, conn, sql, status, value) {
    // status 1 marks the statement that completes a transaction (COMMIT, RELEASE).
    if (status !== 1) return query.call(this, conn, sql, status, value)
    let failure: unknown
    const reject = this._rejecter
    this._rejecter = (error) => {
      failure = error
      reject(error)
    }
    return query.call(this, conn, sql, status, value).then((result) => {
      if (failure !== undefined) throw failure
      return result
    })
  }
}
