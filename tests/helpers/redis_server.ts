/**
 * A throw-away `redis-server` (the binary on the machine) on a free port,
 * without persistence, that a test can stop and start again on the same
 * port to simulate an outage.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from '#tests/helpers/test_database'

/** Resolves whether something answers PING on `port` (within 500 ms). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(500, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')))
  })
}

/** Polls `condition` every 50 ms until it holds or `timeoutMs` passes. */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

/** A redis-server the test controls. */
export class TestRedisServer {
  #child: ChildProcess | null = null

  private constructor(readonly port: number) {}

  /** Starts a server on a free port and waits until it answers. */
  static async start() {
    const server = new TestRedisServer(await freePort())
    await server.resume()
    return server
  }

  /** The URL for REDIS_URL. */
  get url() {
    return `redis://127.0.0.1:${this.port}/0`
  }

  /** (Re)starts the server on its port and waits until it answers PING. */
  async resume() {
    if (this.#child) return
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]
    this.#child = spawn('redis-server', args, { stdio: 'ignore' })
    await waitFor(() => answersPing(this.port), 10_000, `redis-server on port ${this.port}`)
  }

  /** Freezes (SIGSTOP) or thaws (SIGCONT) the server: it keeps its connections but answers nothing. */
  freeze(frozen: boolean) {
    this.#child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT')
  }

  /** Stops the server (`signal`, SIGKILL for a crash) and waits until it exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    const child = this.#child
    if (!child) return
    this.#child = null
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill(signal)
    await exited
  }
}
