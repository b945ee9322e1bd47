/**
 * What a test server received, in order, and a wait until it holds a
 * number of entries (the fake receivers of webhooks and ntfy share it).
 */
export class Arrivals<T> {
  /** Everything received so far (tests read and clear it). */
  readonly list: T[] = []
  #waiters = new Set<() => void>()

  /** `label` and `unit` name the receiver and its entries in the timeout message. */
  constructor(
    protected label: string,
    protected unit: string
  ) {}

  /** Records one entry and wakes the waits it satisfies. */
  push(entry: T): void {
    this.list.push(entry)
    for (const wake of [...this.#waiters]) wake()
  }

  /** Resolves with the first `count` entries once they arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 5000): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.list.length < count) return
        cleanup()
        resolve(this.list.slice(0, count))
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(
          new Error(
            `${this.label}: expected ${count} ${this.unit} within ${timeoutMs} ms, got ${this.list.length}`
          )
        )
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        this.#waiters.delete(check)
      }
      this.#waiters.add(check)
      check()
    })
  }
}
