/**
 * A real Tern server in a child process (bin/server.ts, NODE_ENV=production,
 * JSON logs on stdout), for tests that read its logs or take its disk away.
 * API only: pages need built assets, which test runs do not have.
 */
import { startTern, spawnTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

export interface TernChild {
  /** `http://127.0.0.1:<port>` */
  url: string
  tern: RunningTern
  /** The JSON log lines written so far. */
  logLines(): Record<string, unknown>[]
  stop(): Promise<void>
}

/**
 * Runs the migrations for `env` (a fresh DATA_DIR with SQLite, for instance) as `npm start` does
 * (`ace tern:migrate`, which leaves the checkout's generated database/schema.ts alone); throws with
 * the output on failure.
 */
export async function migrate(env: Record<string, string | undefined>) {
  const result = await spawnTern(
    ['ace.js', 'tern:migrate'],
    { NODE_ENV: 'production', ...env },
    60_000
  )
  if (result.code !== 0) throw new Error(`tern:migrate failed:\n${result.output}`)
}

/**
 * Starts a server with the test run's environment plus `env` and waits until
 * /api/health answers 200 (throws with the output if it never does).
 */
export async function startTernChild(env: Record<string, string | undefined>): Promise<TernChild> {
  const port = await freePort()
  const tern = startTern(
    ['bin/server.ts'],
    // One process (production would fork a worker per core): these tests read its logs and its
    // in-memory rate limits; tests/functional/system/cluster.spec.ts covers the workers.
    {
      NODE_ENV: 'production',
      TERN_WORKERS: '1',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    120_000
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  let healthy = false
  while (!healthy && Date.now() < deadline) {
    const exited = await Promise.race([
      tern.exited.then(() => true),
      new Promise((r) => setTimeout(r, 100, false)),
    ])
    if (exited) break
    healthy = await fetch(`${url}/api/health`)
      .then((response) => response.status === 200)
      .catch(() => false)
  }
  if (!healthy) {
    await tern.stop()
    throw new Error(`Tern did not become healthy:\n${tern.output()}`)
  }
  return {
    url,
    tern,
    logLines: () =>
      tern
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line)),
    stop: async () => {
      await tern.stop()
    },
  }
}
