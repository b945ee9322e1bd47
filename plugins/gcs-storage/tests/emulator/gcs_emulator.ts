/**
 * A real Cloud Storage endpoint for the gcs-storage tests: the Storage
 * emulator of firebase-tools (pinned in `install.mjs`, installed there on
 * first use into node_modules/.cache), started offline by `launcher.mjs` in
 * a child process on a free loopback port. Sets STORAGE_EMULATOR_HOST (the
 * Storage client reads it when built: without it copy, move and metadata
 * calls answer 501) and METADATA_SERVER_DETECTION=none (no probe of the
 * metadata server), and hands out a project id and locally generated
 * service-account credentials. Buckets are created on first use.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePort } from '#tests/helpers/test_database'
import type { GcsSettings } from '../../src/config.js'

/** A running emulator. */
export interface GcsEmulator {
  /** `http://127.0.0.1:<port>` (also in STORAGE_EMULATOR_HOST while running). */
  endpoint: string
  projectId: string
  /** A bucket name the tests may use (created on first use). */
  bucket: string
  /** A service-account key JSON (generated RSA key; the emulator checks no signature). */
  credentials: string
  /** Settings for the driver, with `overrides` applied. */
  settings(overrides?: Partial<GcsSettings>): GcsSettings
  /** Stops the emulator and restores the environment. */
  close(): Promise<void>
}

const here = fileURLToPath(new URL('./', import.meta.url))

/** Installs firebase-tools when missing (minutes, once); resolves to its folder. */
function ensureFirebaseTools(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(here, 'install.mjs')],
      { maxBuffer: 16 * 1024 * 1024, timeout: 20 * 60_000 },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`installing the GCS emulator failed: ${stderr || error.message}`))
        resolve(stdout.trim().split('\n').pop()!)
      }
    )
  })
}

/** A service-account key file with a freshly generated RSA key. */
function generatedCredentials(projectId: string): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: `tern-tests@${projectId}.iam.gserviceaccount.com`,
    client_id: '100000000000000000000',
    token_uri: 'https://oauth2.googleapis.com/token',
  })
}

/** Waits for the launcher's `{"host","port"}` line (or its exit). */
function ready(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    const lines = createInterface({ input: child.stdout! })
    const timer = setTimeout(
      () => fail(new Error(`the GCS emulator did not start in ${timeoutMs} ms: ${stderr}`)),
      timeoutMs
    )
    const onExit = (code: number | null) =>
      fail(new Error(`the GCS emulator exited (${code}): ${stderr}`))
    function fail(error: Error) {
      clearTimeout(timer)
      lines.close()
      child.off('exit', onExit)
      reject(error)
    }
    child.once('exit', onExit)
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return
      clearTimeout(timer)
      child.off('exit', onExit)
      lines.close()
      child.stdout!.resume()
      resolve()
    })
  })
}

/** Starts an emulator (one per process at a time: STORAGE_EMULATOR_HOST is global). */
export async function startGcsEmulator(
  options: { bucket?: string; projectId?: string } = {}
): Promise<GcsEmulator> {
  const firebaseTools = await ensureFirebaseTools()
  const projectId = options.projectId ?? 'demo-tern'
  const bucket = options.bucket ?? 'tern-tests'
  const port = await freePort()
  const blobs = await mkdtemp(join(tmpdir(), 'tern-gcs-emulator-'))
  const child = spawn(
    process.execPath,
    [join(here, 'launcher.mjs'), firebaseTools, String(port), projectId, blobs],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, METADATA_SERVER_DETECTION: 'none' },
    }
  )
  try {
    await ready(child, 120_000)
  } catch (error) {
    child.kill('SIGKILL')
    await rm(blobs, { recursive: true, force: true })
    throw error
  }

  const endpoint = `http://127.0.0.1:${port}`
  const previous = {
    host: process.env.STORAGE_EMULATOR_HOST,
    metadata: process.env.METADATA_SERVER_DETECTION,
  }
  process.env.STORAGE_EMULATOR_HOST = endpoint
  process.env.METADATA_SERVER_DETECTION = 'none'
  const credentials = generatedCredentials(projectId)

  return {
    endpoint,
    projectId,
    bucket,
    credentials,
    settings: (overrides = {}) => ({
      bucketName: bucket,
      bucketPath: '',
      projectId,
      credentials,
      endpoint,
      ...overrides,
    }),
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.stdin!.end()
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited
        clearTimeout(timer)
      }
      await rm(blobs, { recursive: true, force: true })
      for (const [name, value] of [
        ['STORAGE_EMULATOR_HOST', previous.host],
        ['METADATA_SERVER_DETECTION', previous.metadata],
      ] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    },
  }
}
