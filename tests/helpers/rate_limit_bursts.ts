/**
 * Helpers of the rate-limit burst tests (tests/functional/faults): parallel
 * requests from chosen client addresses, the limiter store and window of the
 * test process, and a second Tern process sharing the database (and Redis).
 */
import env from '#start/env'
import { startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { baseUrl } from '#tests/helpers/shares'

/** Requests of one burst. */
export const BURST = 100

/** Where and how `request` sends: another instance's base URL, another method, a Cookie header. */
export interface RequestOptions {
  base?: string
  method?: string
  cookie?: string
}

/** One JSON request (POST by default) from client address `ip` (the app trusts X-Forwarded-For from loopback). */
export async function request(
  path: string,
  json: unknown,
  ip: string,
  options: RequestOptions = {}
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': ip,
  }
  if (options.cookie) headers.cookie = options.cookie
  const response = await fetch((options.base ?? baseUrl()) + path, {
    method: options.method ?? 'POST',
    headers,
    body: JSON.stringify(json),
  })
  const text = await response.text()
  const body =
    (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : null
  return { status: response.status, body }
}

/** `request`, answering the status only. */
export async function post(
  path: string,
  json: unknown,
  ip: string,
  options: RequestOptions = {}
): Promise<number> {
  return (await request(path, json, ip, options)).status
}

/** `count` different client addresses (at most 254) in one random /24. */
export function distinctIps(count: number): string[] {
  const [a, b] = [1 + Math.floor(Math.random() * 254), 1 + Math.floor(Math.random() * 254)]
  return Array.from({ length: count }, (_, index) => `10.${a}.${b}.${index + 1}`)
}

/** What a burst got: how many requests were tried, got past the limit (not 429), and their statuses. */
export interface Tally {
  tried: number
  through: number
  refused: number
  /** Every status other than 429, e.g. 401 for a checked wrong password. */
  passed: number[]
}

/** Sends `count` requests at once (`send(index)` resolves to a status) and tallies the answers. */
export async function burst(
  count: number,
  send: (index: number) => Promise<number>
): Promise<Tally> {
  const statuses = await Promise.all(Array.from({ length: count }, (_, index) => send(index)))
  const passed = statuses.filter((status) => status !== 429)
  return { tried: count, through: passed.length, refused: count - passed.length, passed }
}

/**
 * Makes this test process count in `store` (default: unchanged) with a
 * `window` (e.g. "6 seconds") long enough for a burst, or a series of
 * requests, to fit in one window on a loaded machine; returns the function
 * that restores the previous values.
 */
export function useLimiter(options: { store?: 'database' | 'redis'; window: string }): () => void {
  const previous = { store: env.get('LIMITER_STORE'), window: env.get('RATE_LIMIT_WINDOW') }
  if (options.store) env.set('LIMITER_STORE', options.store)
  env.set('RATE_LIMIT_WINDOW', options.window)
  return () => {
    for (const [key, value] of [
      ['LIMITER_STORE', previous.store],
      ['RATE_LIMIT_WINDOW', previous.window],
    ] as const) {
      env.set(key, value as never)
      // process.env would otherwise hold the string "undefined".
      if (value === undefined) delete process.env[key]
    }
  }
}

/**
 * Connects this process to Redis (the connection is lazy when REDIS_URL is
 * not set, and without an offline queue a command before the connection is
 * up fails) and resolves once it answers.
 */
export async function redisReady(): Promise<void> {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  const connection = redis.connection('main')
  if (connection.status === 'wait') await connection.ioConnection.connect()
  await connection.ping()
}

/** A second Tern process on the test database. */
export interface SecondInstance {
  url: string
  tern: RunningTern
}

/**
 * Starts `bin/server.ts` on a free port with the test run's database and
 * DATA_DIR, counting in `store` (Redis: the local server) with `window`, and
 * resolves once /api/health answers 200.
 */
export async function startSecondInstance(
  store: 'database' | 'redis',
  window: string
): Promise<SecondInstance> {
  const port = await freePort()
  const tern = startTern(
    ['bin/server.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      LIMITER_STORE: store,
      REDIS_URL: store === 'redis' ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
      RATE_LIMIT_WINDOW: window,
    },
    240_000
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const status = await fetch(`${url}/api/health`)
      .then((response) => response.status)
      .catch(() => 0)
    if (status === 200) return { url, tern }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await tern.stop()
  throw new Error(`the second Tern instance did not start:\n${tern.output()}`)
}

/** Sends `attempt` until it is no longer refused with 429 (every 200 ms, up to `maxSeconds`). */
export async function untilNotLimited(
  attempt: () => Promise<number>,
  maxSeconds: number
): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000
  for (;;) {
    const status = await attempt()
    if (status !== 429 || Date.now() > deadline) return status
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
