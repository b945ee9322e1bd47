/*
|--------------------------------------------------------------------------
| A start that fails
|--------------------------------------------------------------------------
|
| A server that cannot start (port in use, a bad environment value, a plugin
| refused, another APP_KEY) must stop at once with a non-zero exit code and
| one line saying what is wrong: a process that logs the error and stays up
| serves nothing, and no supervisor (systemd, podman, Kubernetes) restarts
| it. bin/server.ts and bin/console.ts print the line; with HTTP workers
| (start/cluster.ts) a worker hands it to the primary, which prints it once
| and stops the others.
|
*/
import cluster from 'node:cluster'

/** Prefix of the line: `Tern cannot start: <what is wrong>`. */
export const START_FAILURE_PREFIX = 'Tern cannot start: '

/** Message a worker sends the cluster's primary when its start failed. */
export const START_FAILED_MESSAGE = 'tern:start-failed'

/**
 * An error that stops the start with its own message as the line (no stack):
 * what the operator must fix is in the message. `code` is shown before it.
 */
export class StartupError extends Error {
  constructor(
    message: string,
    public code?: string,
    options?: ErrorOptions
  ) {
    super(message, options)
    this.name = 'StartupError'
  }
}

interface ListenError extends Error {
  code?: string
  syscall?: string
  address?: string
  port?: number
  help?: string
}

/** A text on one line (a message may carry line breaks). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim()

/**
 * What is wrong, in one line (without the prefix): the listen errors in
 * words with what to change, the environment's validation errors one after
 * the other (each names its variable), a coded error as `CODE: message`,
 * anything else by its message.
 */
export function describeStartFailure(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error))
  const failure = error as ListenError
  if (failure.syscall === 'listen' || failure.syscall === 'bind') {
    const where = `${failure.address ?? process.env.HOST}:${failure.port ?? process.env.PORT}`
    if (failure.code === 'EADDRINUSE') {
      return `${where} is already in use (EADDRINUSE): stop the program listening there, or set PORT to a free port`
    }
    if (failure.code === 'EACCES') {
      return `no permission to listen on ${where} (EACCES): set PORT above 1023, or grant the permission`
    }
    if (failure.code === 'EADDRNOTAVAIL') {
      return `${failure.address} is not an address of this machine (EADDRNOTAVAIL): set HOST to one of its addresses, or 0.0.0.0`
    }
  }
  if (failure.syscall === 'connect' && failure.address) {
    return `cannot connect to ${failure.address}:${failure.port} (${failure.code})`
  }
  if (failure.code === 'E_INVALID_ENV_VARIABLES' && failure.help) {
    return failure.help
      .split('\n')
      .map((line) => line.replace(/^\s*-\s*/, '').trim())
      .filter(Boolean)
      .join('; ')
  }
  const message = oneLine(failure.message)
  return failure.code && !message.includes(failure.code) ? `${failure.code}: ${message}` : message
}

/** The line printed for a failed start. */
export function startFailureLine(error: unknown): string {
  return START_FAILURE_PREFIX + describeStartFailure(error)
}

/**
 * Writes the line to stderr; the stack follows only at LOG_LEVEL debug or
 * trace, for an error that is not a StartupError (a bug, not a setting).
 */
export function printStartFailure(line: string, error?: unknown) {
  process.stderr.write(line + '\n')
  const verbose = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '')
  if (verbose && error instanceof Error && !(error instanceof StartupError) && error.stack) {
    process.stderr.write(error.stack + '\n')
  }
}

/**
 * Ends this process because its start failed, with exit code 1: a cluster
 * worker hands the line to its primary (which prints it once for all
 * workers), any other process prints it. Never resolves.
 */
export function exitStartFailed(line: string, error?: unknown): Promise<never> {
  process.exitCode = 1
  if (cluster.isWorker && process.connected) {
    process.send!({ type: START_FAILED_MESSAGE, line }, () => process.exit(1))
  } else {
    printStartFailure(line, error)
    process.exit(1)
  }
  return new Promise(() => {})
}
