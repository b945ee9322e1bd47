/**
 * Garbage-collection pacing for streamed transfers.
 *
 * Every byte of an upload or download passes through the process in a fresh
 * `ArrayBuffer` (64 KiB socket reads, 1 MiB file reads) that dies a few
 * milliseconds later. V8 counts those buffers as external memory; about every
 * 64 MiB of it, it starts a full mark-compact of the whole heap, because the
 * young generation (where the buffers' small JS objects live) fills far more
 * slowly than the external bytes grow. A full collection of Tern's ~35 MB
 * heap costs 30-60 ms of CPU (main thread + concurrent markers), so at
 * gigabit rates collections, not I/O, bounded the throughput
 * (`bench/transfer`, bench/README.md).
 *
 * A minor collection (scavenge) frees the same dead buffers for a fraction of
 * that cost, since it only visits the young generation. So every
 * `stepBytes` of streamed data, the pacer asks V8 for one; the external
 * counter then never reaches the full-collection trigger during transfers.
 * `TRANSFER_GC_STEP_MB` sets the step (default 8: at 16 some transfers still
 * met full collections, at 8 none did in `bench/transfer`), 0 turns pacing off.
 *
 * The freed buffers only leave V8's external-memory count once the array
 * buffers are swept. V8 sweeps them on a background thread, which a busy
 * machine starves: the count then stays high and full collections come back
 * (in `bench/transfer` on a loaded 2-core VM: 43-77 full collections per GiB
 * up and down instead of ~25, and 1-3.5 s instead of ~0.6 s of CPU for a
 * 1 GiB download). The pacer therefore turns concurrent array-buffer sweeping
 * off, so that sweeping happens within the (short) minor collection itself.
 *
 * Both V8 settings are given at launch, never switched at run time (Node
 * documents `v8.setFlagsFromString` after start as unsafe): `--expose-gc
 * --no-concurrent-array-buffer-sweeping` on the command line of `npm start`
 * (scripts/server_flags.js), of the container image (Containerfile CMD) and of
 * bench/transfer. Started without `--expose-gc`, pacing is off. Flags given
 * at launch without the pacer (`--no-concurrent-array-buffer-sweeping`, a small
 * `--max-semi-space-size`, `--external-memory-accounted-in-global-limit`) were
 * measured and cost 3-10 times its CPU per downloaded GiB (bench/README.md, "GC
 * pacer against launch-time flags"), so the pacer stays.
 */
import { Transform, pipeline, type Readable } from 'node:stream'
import env from '#start/env'
import { countDownloads, transferTotals } from '#services/system/transfer_totals'

type Collect = (options: { type: 'minor' | 'major' }) => void

const MEBIBYTE = 1024 * 1024
const DEFAULT_STEP_MB = 8

/** `gc()` when the process was started with `--expose-gc`, else null (pacing off). */
function launchCollector(): Collect | null {
  const gc = (globalThis as { gc?: unknown }).gc
  return typeof gc === 'function' ? (gc as Collect) : null
}

let collect: Collect | null = launchCollector()
let stepBytes = Math.max(0, env.get('TRANSFER_GC_STEP_MB') ?? DEFAULT_STEP_MB) * MEBIBYTE
let pending = 0

/**
 * Sets the pacing step in MiB (0 disables pacing; the default comes from
 * `TRANSFER_GC_STEP_MB`) and the collector (the launch's `gc()` by default;
 * tests hand in their own).
 */
export function configureTransferPacing(
  stepMebibytes: number = DEFAULT_STEP_MB,
  collector: Collect | null = launchCollector()
): void {
  stepBytes = Math.max(0, stepMebibytes) * MEBIBYTE
  collect = collector
  pending = 0
}

/** Records `bytes` streamed through the process; runs a minor collection once per step. */
export function noteTransferred(bytes: number): void {
  if (stepBytes === 0) return
  pending += bytes
  if (pending < stepBytes) return
  pending = 0
  collect?.({ type: 'minor' })
}

/**
 * Paces collections for everything `source` emits (a download body) and
 * counts its bytes for /metrics: the returned stream passes it through unchanged. An error of `source` destroys
 * the returned stream; destroying the returned stream (the client went away)
 * destroys `source`. With `beforeEnd`, the returned stream ends only once
 * that promise settled (work that runs while the body streams, such as the
 * download notices, is done when the client has the last byte).
 */
export function paceTransfer(source: Readable, beforeEnd?: Promise<unknown>): Readable {
  if (stepBytes === 0 && !countDownloads.enabled && !beforeEnd) return source
  const paced = new Transform({
    readableHighWaterMark: source.readableHighWaterMark,
    transform(chunk: Buffer, _encoding, callback) {
      transferTotals.downloaded += chunk.length
      noteTransferred(chunk.length)
      callback(null, chunk)
    },
    flush(callback) {
      if (!beforeEnd) return callback()
      beforeEnd.then(
        () => callback(),
        () => callback()
      )
    },
  })
  pipeline(source, paced, () => {})
  return paced
}
