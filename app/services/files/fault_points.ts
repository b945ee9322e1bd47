/**
 * Test-only fault points of the upload path. The fault suite
 * (tests/functional/faults/upload_crash.spec.ts) kills a real Tern process
 * with SIGKILL at a named phase of an upload; a fault point makes reaching
 * that phase deterministic instead of a matter of timing.
 *
 * Inert unless NODE_ENV is `test` AND `TERN_FAULT_POINT_FILE` names a file
 * (never set in production; the check is two property reads). The file holds
 * one line `<point> <shareIdPrefix>`, read at every point, so a test can arm
 * another point for the next process without restarting this one. A request
 * of a share whose id starts with the prefix that reaches the armed point
 * prints `TERN_FAULT_POINT_REACHED <point> <shareId>` on stdout and then
 * waits forever: the test sees the line and kills the process at exactly
 * that phase (the state is what kill -9 at that moment leaves behind).
 */
import { readFileSync } from 'node:fs'

/**
 * The phases of an upload a test can stop at:
 * - `first-chunk`: the file row (and multipart upload) exist, the first chunk is not stored;
 * - `chunk-stored`: a middle chunk is stored but not recorded;
 * - `assembling`: the session is claimed for assembly, nothing joined yet;
 * - `assembled`: the object is whole in storage, the file not yet marked completed;
 * - `completing`: POST /complete checked the files, the share is not yet marked completed.
 */
export type FaultPoint = 'first-chunk' | 'chunk-stored' | 'assembling' | 'assembled' | 'completing'

/** The armed point and share-id prefix, or null (always null outside tests). */
function armed(): { point: string; prefix: string } | null {
  if (process.env.NODE_ENV !== 'test') return null
  const file = process.env.TERN_FAULT_POINT_FILE
  if (!file) return null
  let line: string
  try {
    line = readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
  const [point, prefix] = line.split(/\s+/)
  return point && prefix ? { point, prefix } : null
}

/** Stops here forever when `point` is armed for `shareId` (see the module comment); otherwise returns at once. */
export async function faultPoint(point: FaultPoint, shareId: string): Promise<void> {
  const target = armed()
  if (!target || target.point !== point || !shareId.startsWith(target.prefix)) return
  process.stdout.write(`TERN_FAULT_POINT_REACHED ${point} ${shareId}\n`)
  await new Promise<never>(() => {})
}
