/**
 * Node options Tern's server is launched with (`npm start`, bench/transfer; the
 * Containerfile's CMD repeats them). They are given at launch because V8 flags
 * switched at run time are unsafe:
 * - `--expose-gc`: the transfer GC pacer runs a minor collection per 8 MiB
 *   streamed (app/services/files/transfer_gc_pacer.ts);
 * - `--no-concurrent-array-buffer-sweeping`: freed transfer buffers leave V8's
 *   external-memory count within that collection, not on a background thread a
 *   busy machine starves (bench/README.md).
 * - `--max-semi-space-size=8` (MiB): V8 grows the young generation to 64 MiB
 *   during the boot's burst of allocations and keeps it, a third of the RSS of
 *   an idle server (process.memoryUsage: new space 64.0 MiB, 10 used). With 8
 *   the server starts at ~160 instead of ~178 MiB and peaks ~30 MiB lower
 *   through a 512 MiB upload and download (the target: < 200 MiB), at the same
 *   CPU per transfer: with the GC pacer collecting the young generation every
 *   8 MiB streamed, transfers never fill a larger one (measured alternating,
 *   single process, loaded 2-core VM: upload 1.04-1.12 vs 1.07-1.59 CPU s,
 *   download 0.24-0.26 vs 0.36-0.37 CPU s).
 * With TERN_WORKERS > 1 the server is a cluster primary; it forks its HTTP
 * workers with these same flags (start/cluster.ts: execArgv).
 */
export const SERVER_NODE_FLAGS = [
  '--max-semi-space-size=8',
  '--expose-gc',
  '--no-concurrent-array-buffer-sweeping',
]
