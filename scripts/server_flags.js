/**
 * Node options Tern's server is launched with (`npm start`, bench/transfer; the
 * Containerfile's CMD repeats them). They are given at launch because V8 flags
 * switched at run time are unsafe:
 * - `--expose-gc`: the transfer GC pacer runs a minor collection per 8 MiB
 *   streamed (app/services/files/transfer_gc_pacer.ts);
 * - `--no-concurrent-array-buffer-sweeping`: freed transfer buffers leave V8's
 *   external-memory count within that collection, not on a background thread a
 *   busy machine starves (bench/README.md).
 * With TERN_WORKERS > 1 the server is a cluster primary; it forks its HTTP
 * workers with these same flags (start/cluster.ts: execArgv).
 */
export const SERVER_NODE_FLAGS = ['--expose-gc', '--no-concurrent-array-buffer-sweeping']
