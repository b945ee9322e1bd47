/**
 * A real Tern server in a child process that a test can kill with SIGKILL at
 * a named phase of an upload (see app/services/files/fault_points.ts). It
 * shares the test run's database and DATA_DIR (the environment is
 * inherited), so the test can look at rows and stored objects directly.
 *
 * ```ts
 * const tern = await startCrashTern(faultFile)     // waits for /api/health
 * await armFaultPoint(faultFile, 'assembling', 'f2-')
 * const pending = tern.request('POST', `/api/shares/${id}/files?...`, { body })
 * await tern.reached('assembling', id)             // the request waits at the point
 * await tern.kill()                                // kill -9
 * ```
 */
import { createHash } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import type { FaultPoint } from '#services/files/fault_points'
import { startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

/** A response read whole. */
export interface ChildResponse {
  status: number
  json: any
  bytes: Buffer
  cookies: string[]
}

/** Waits until `condition` holds, checking every 50 ms; throws after `timeoutMs` with `what`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000
) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Arms `point` for the shares whose id starts with `prefix` (or disarms with null), for every process reading `file`. */
export async function armFaultPoint(file: string, point: FaultPoint | null, prefix = '') {
  await writeFile(file, point ? `${point} ${prefix}\n` : '')
}

/** Hex sha256 of bytes. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A Tern child process on its own port. */
export interface CrashTern {
  port: number
  process: RunningTern
  /** One HTTP request to the child, read whole. */
  request(
    method: string,
    path: string,
    options?: { body?: Buffer; cookie?: string; json?: unknown }
  ): Promise<ChildResponse>
  /** Resolves when a request of `shareId` waits at `point`. */
  reached(point: FaultPoint, shareId: string): Promise<void>
  /** kill -9, then waits for the exit. */
  kill(): Promise<void>
}

/** Starts `bin/server.ts` with NODE_ENV=test and the fault file; resolves once /api/health answers 200. */
export async function startCrashTern(faultFile: string): Promise<CrashTern> {
  const port = await freePort()
  const child = startTern(
    ['bin/server.ts'],
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DB_CONNECTION: process.env.DB_CONNECTION ?? 'sqlite',
      TERN_FAULT_POINT_FILE: faultFile,
    },
    300_000
  )
  const base = `http://127.0.0.1:${port}`
  const tern: CrashTern = {
    port,
    process: child,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {}
      let body: Uint8Array | string | undefined
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(options.json)
      } else if (options.body) {
        headers['content-type'] = 'application/octet-stream'
        body = new Uint8Array(options.body)
      }
      if (options.cookie) headers.cookie = options.cookie
      const response = await fetch(base + path, { method, headers, body })
      const bytes = Buffer.from(await response.arrayBuffer())
      const json =
        (response.headers.get('content-type') ?? '').includes('json') && bytes.length
          ? JSON.parse(bytes.toString())
          : null
      return { status: response.status, json, bytes, cookies: response.headers.getSetCookie() }
    },
    async reached(point, shareId) {
      const marker = `TERN_FAULT_POINT_REACHED ${point} ${shareId}\n`
      await until(() => child.output().includes(marker), `${point} of ${shareId}`)
    },
    async kill() {
      await child.kill()
    },
  }
  const exited = child.exited.then(() => true)
  await until(
    async () => {
      if (await Promise.race([exited, Promise.resolve(false)]))
        throw new Error(`Tern exited:\n${child.output()}`)
      const status = await fetch(`${base}/api/health`).then(
        (r) => r.status,
        () => 0
      )
      return status === 200
    },
    'the child server to start',
    60_000
  )
  return tern
}
