/**
 * Test-only fault points of the upload path and of the notification outbox.
 * The fault suites (tests/functional/faults/upload_crash.spec.ts,
 * tests/functional/notifications/instances.spec.ts) kill a real Tern process
 * with SIGKILL at a named phase; a fault point makes reaching that phase
 * deterministic instead of a matter of timing.
 *
 * Inert unless NODE_ENV is `test` AND `TERN_FAULT_POINT_FILE` names a file
 * (never set in production; the check is two property reads). The file holds
 * lines `<point> <keyPrefix>` (one armed point each), read at every point, so
 * a test can arm another point for the next process without restarting this
 * one. The key is a share id on the upload path, `<channel>:<target>` in the
 * outbox. Whatever reaches an armed point with a key that starts with the
 * prefix prints `TERN_FAULT_POINT_REACHED <point> <key>` on stdout and then
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
 * - `completing`: POST /complete checked the files, the share is not yet marked completed;
 * - `outbox-claimed`: an outbox delivery is claimed (its claim kept alive), nothing sent yet.
 */
export type FaultPoint =
  'first-chunk' | 'chunk-stored' | 'assembling' | 'assembled' | 'completing' | 'outbox-claimed'

/** The armed points with their key prefixes (always none outside tests). */
function armed(): { point: string; prefix: string }[] {
  if (process.env.NODE_ENV !== 'test') return []
  const file = process.env.TERN_FAULT_POINT_FILE
  if (!file) return []
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([point, prefix]) => point && prefix)
    .map(([point, prefix]) => ({ point, prefix }))
}

/** Stops here forever when `point` is armed for `key` (see the module comment); otherwise returns at once. */
export async function faultPoint(point: FaultPoint, key: string): Promise<void> {
  if (!armed().some((target) => target.point === point && key.startsWith(target.prefix))) return
  process.stdout.write(`TERN_FAULT_POINT_REACHED ${point} ${key}\n`)
  await new Promise<never>(() => {})
}
