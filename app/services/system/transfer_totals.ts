/**
 * Bytes received and sent by transfers, counted where the bodies stream
 * (app/services/files/chunk_writer.ts, transfer_gc_pacer.ts): a plain
 * number added per chunk, read by /metrics at scrape time, so the hot path
 * pays no label lookup or metric object.
 */
export const transferTotals = {
  /** Bytes of upload chunks received (including chunks later refused as too large). */
  uploaded: 0,
  /** Bytes of file and zip downloads handed to the client's connection. */
  downloaded: 0,
}

/** Whether download bodies are counted even when GC pacing is off (metrics enabled). */
export const countDownloads = { enabled: Boolean(process.env.METRICS_TOKEN) }
