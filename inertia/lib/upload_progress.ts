/**
 * The speed and time left of an upload:
 * a moving average of the bytes stored over the last few seconds, so the
 * figure the upload page shows moves smoothly instead of jumping at every
 * chunk. Free of React and of the browser (times are parameters), so the
 * unit tests drive it with made-up clocks. Written here rather than taken
 * from npm: it is twenty lines, and the packages that do it bundle a
 * progress bar or a Node stream around them.
 *
 * No `~/` imports here: Node imports this file directly in the tests.
 */

interface Sample {
  /** Milliseconds (any clock, the same for every call). */
  time: number
  /** Bytes stored so far, all files together. */
  bytes: number
}

/**
 * Collects `(time, bytes done)` samples and answers the average speed over
 * the last `windowMs` (5 s by default). The sample just before the window
 * is kept as its anchor, so sparse updates (one per 10 MB chunk on a slow
 * line) still give a speed; when nothing arrives the speed decays, as it
 * should, since it is measured up to `now`.
 */
export class SpeedMeter {
  #samples: Sample[] = []

  constructor(
    private readonly windowMs = 5000,
    /** No speed before this much time has passed since the start (too noisy). */
    private readonly minimumMs = 1000
  ) {}

  /** Starts (or restarts) the measure at `time` with `bytes` already done. */
  start(time: number, bytes = 0) {
    this.#samples = [{ time, bytes }]
  }

  /** Records that `bytes` (a running total) are done at `time`. */
  record(time: number, bytes: number) {
    if (this.#samples.length === 0) return this.start(time, bytes)
    const last = this.#samples[this.#samples.length - 1]
    if (bytes < last.bytes) return this.start(time, bytes)
    if (time <= last.time) last.bytes = bytes
    else this.#samples.push({ time, bytes })
    this.#trim(time)
  }

  /** Bytes per second over the window ending at `now`, or null while too early to say. */
  speed(now: number): number | null {
    this.#trim(now)
    const first = this.#samples[0]
    const last = this.#samples[this.#samples.length - 1]
    if (!first || now - first.time < this.minimumMs) return null
    const bytes = last.bytes - first.bytes
    return bytes > 0 ? (bytes * 1000) / (now - first.time) : 0
  }

  /** Seconds left for `remaining` bytes at the current speed, or null when unknown. */
  secondsLeft(now: number, remaining: number): number | null {
    const speed = this.speed(now)
    if (remaining <= 0) return 0
    return speed ? remaining / speed : null
  }

  /** Drops samples older than the window but the newest of them (the anchor). */
  #trim(now: number) {
    const start = now - this.windowMs
    while (this.#samples.length > 2 && this.#samples[1].time <= start) this.#samples.shift()
  }
}

/**
 * Whether a screen-reader announcement is due: the first one, a change of
 * phase (always), or `intervalMs` (15 s by default) after the last one, so
 * a polite live region speaks at a pace people can follow, not every tick.
 */
export function announcementDue(
  last: { time: number; phase: string } | null,
  now: number,
  phase: string,
  intervalMs = 15_000
): boolean {
  return !last || last.phase !== phase || now - last.time >= intervalMs
}
