/**
 * Real Tern servers (`bin/server.ts`) in child processes on the test run's
 * database, for the outbox's crash and multi-instance tests: started, waited
 * for until /api/health answers, killed with SIGKILL like a crash.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort } from '#tests/helpers/test_database'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** A running child. */
export interface TernChild {
  url: string
  output(): string
  /** SIGKILL (no shutdown hook runs) and wait for the exit. */
  kill(): Promise<void>
}

/**
 * Starts a server on a free port with the test environment plus `env`
 * (the outbox polls every 100 ms) and resolves once /api/health is 200.
 */
export async function startChild(env: Record<string, string> = {}): Promise<TernChild> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      OUTBOX_POLL_INTERVAL_MS: '100',
      ...env,
    },
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ternChild: TernChild = {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
  const deadline = Date.now() + 45_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Tern child exited at start:\n${output}`)
    const status = await fetch(`${ternChild.url}/api/health`).then(
      (r) => r.status,
      () => 0
    )
    if (status === 200) return ternChild
    if (Date.now() > deadline) {
      await ternChild.kill()
      throw new Error(`Tern child not healthy within 45 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** One JSON request to a child; resolves with the status and parsed body. */
export async function call(
  child: TernChild,
  method: string,
  path: string,
  cookie?: string,
  json?: unknown
) {
  const response = await fetch(child.url + path, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : null }
}
