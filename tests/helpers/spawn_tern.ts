import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface SpawnResult {
  code: number | null
  output: string
}

export interface RunningTern {
  /** The child's process id (with TERN_WORKERS > 1: the cluster's primary). */
  pid: number
  /** Resolves when the process exits (code null when it was killed). */
  exited: Promise<SpawnResult>
  /** Output so far. */
  output(): string
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<SpawnResult>
  /** Kills the process at once with SIGKILL (a crash: no shutdown hooks run) and waits for it. */
  kill(): Promise<SpawnResult>
}

/**
 * Starts a Tern entry point (`bin/server.ts`, `ace.js`, …) in a child process on the
 * project's Node with the given environment overrides. It is killed after
 * `timeoutMs` if still running. Used to test what an operator sees at start.
 */
export function startTern(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 20_000
): RunningTern {
  const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const exited = new Promise<SpawnResult>((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
  return {
    pid: child.pid!,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(force)
      }
      return exited
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      return exited
    },
  }
}

/**
 * Runs a Tern entry point to completion (see startTern) and resolves with its
 * exit code and combined output.
 */
export function spawnTern(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 20_000
) {
  return startTern(args, env, timeoutMs).exited
}
