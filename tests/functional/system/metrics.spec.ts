/**
 * /metrics: 404 while METRICS_TOKEN is unset; with it set,
 * 401 without the right Bearer token and the Prometheus text format with it.
 * The counters are read before and after real requests to a Tern child
 * (sharing this run's database), and must have moved by what was done.
 */
import app from '@adonisjs/core/services/app'
import { test } from '@japa/runner'
import { randomBytes, randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { startTernChild, type TernChild } from '#tests/helpers/tern_child'
import { cleanupShareTests, shareUser } from '#tests/helpers/shares'
import JobRunner from '#services/jobs/job_runner'
import { metricsRegistry } from '#services/system/metrics'

const TOKEN = `metrics-${randomBytes(8).toString('hex')}`

/** Parses the text format into `name{labels}` → value (labels as written, which prom-client orders stably). */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line)
    if (!match) throw new Error(`not the Prometheus text format: ${line}`)
    samples.set(match[1], Number(match[2]))
  }
  return samples
}

/** The sum of the samples of `name` whose labels include every one of `labels`. */
function total(samples: Map<string, number>, name: string, labels: string[] = []) {
  let sum = 0
  for (const [key, value] of samples) {
    const keyName = key.split('{')[0]
    if (keyName === name && labels.every((label) => key.includes(label))) sum += value
  }
  return sum
}

test.group('Metrics | off', () => {
  test('without METRICS_TOKEN /metrics answers 404 like an unknown route', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/metrics').header('authorization', 'Bearer anything')
    response.assertStatus(404)
    const unknown = await client.get('/no-such-page-here')
    unknown.assertStatus(404)
    assert.equal(response.header('content-type'), unknown.header('content-type'))
    assert.notInclude(response.text(), 'tern_http_requests_total')
  })

  test('job runs are counted by job and result', async ({ assert }) => {
    const before = parse(await metricsRegistry.metrics())
    assert.isTrue(await (await app.container.make(JobRunner)).run('expiredAuthTokens'))
    const after = parse(await metricsRegistry.metrics())
    const labels = ['job="expiredAuthTokens"', 'result="ran"']
    assert.equal(
      total(after, 'tern_job_runs_total', labels) - total(before, 'tern_job_runs_total', labels),
      1
    )
  })
})

test.group('Metrics | on, in a server with METRICS_TOKEN', (group) => {
  let tern: TernChild
  group.setup(async () => {
    tern = await startTernChild({
      METRICS_TOKEN: TOKEN,
      LIMITER_STORE: 'memory',
      RATE_LIMIT_PER_IDENTIFIER: '2',
    })
    return () => tern.stop()
  })
  group.each.teardown(async () => {
    await cleanupShareTests()
    await db.from('notification_deliveries').where('event_id', 'metrics-test').delete()
  })

  const call = (path: string, init: RequestInit = {}) => fetch(tern.url + path, init)
  const scrape = async () => {
    const response = await call('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    if (response.status !== 200) throw new Error(`metrics: ${response.status}`)
    return { contentType: response.headers.get('content-type'), text: await response.text() }
  }

  test('a missing or wrong token answers 401 in the error shape', async ({ assert }) => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const response = await call('/metrics', { headers })
      assert.equal(response.status, 401)
      assert.include(response.headers.get('www-authenticate') ?? '', 'Bearer')
      const body = (await response.json()) as any
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'])
      assert.notInclude(JSON.stringify(body), TOKEN)
    }
  })

  test('counters move after real uploads, downloads, refusals and outbox rows', async ({
    assert,
  }) => {
    const first = await scrape()
    assert.match(first.contentType!, /^text\/plain; version=0\.0\.4/)
    const before = parse(first.text)

    const { user, cookie } = await shareUser()
    const createShare = async () => {
      const id = `metrics-${randomBytes(5).toString('hex')}`
      const created = await call('/api/shares', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ id, expiration: 'never', recipients: [] }),
      })
      assert.equal(created.status, 201, await created.clone().text())
      return id
    }
    const upload = async (share: string, body: Buffer, chunkIndex: number, totalChunks: number) => {
      const query = new URLSearchParams({
        name: 'a.bin',
        chunkIndex: String(chunkIndex),
        totalChunks: String(totalChunks),
      })
      const response = await call(`/api/shares/${share}/files?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', cookie },
        body: new Uint8Array(body),
      })
      assert.equal(response.status, 201, await response.clone().text())
      return ((await response.json()) as any).id as string
    }
    const shareId = await createShare()
    const content = randomBytes(3000)
    const fileId = await upload(shareId, content, 0, 1)
    const completed = await call(`/api/shares/${shareId}/complete`, {
      method: 'POST',
      headers: { cookie },
    })
    assert.equal(completed.status, 202)
    // The first of two chunks (chunks but the last have the default size, 10 MB): stays in progress.
    await upload(await createShare(), Buffer.alloc(10_000_000), 0, 2)
    const download = await call(`/api/shares/${shareId}/files/${fileId}`, { headers: { cookie } })
    assert.equal(download.status, 200)
    assert.equal(Buffer.from(await download.arrayBuffer()).length, content.length)

    const signIn = (password: string) =>
      call('/api/auth/signIn', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password }),
      })
    const statuses = [] as number[]
    for (let attempt = 0; attempt < 3; attempt++)
      statuses.push((await signIn('wrong-password')).status)
    assert.deepEqual(statuses, [401, 401, 429])

    const now = Date.now()
    await db.table('notification_deliveries').insert({
      id: randomUUID(),
      dedupe_key: randomBytes(16).toString('hex'),
      event_id: 'metrics-test',
      event_type: 'share.created',
      channel: 'email',
      target: '',
      status: 'failed',
      attempts: 8,
      max_attempts: 8,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })

    const after = parse((await scrape()).text)
    const delta = (name: string, labels: string[] = []) =>
      total(after, name, labels) - total(before, name, labels)
    const downloadRoute = ['route="/api/shares/:id/files/:fileId"', 'status="200"', 'method="GET"']
    assert.equal(delta('tern_http_requests_total', downloadRoute), 1)
    assert.equal(delta('tern_http_request_duration_seconds_count', downloadRoute), 1)
    assert.equal(delta('tern_http_requests_total', ['route="/api/auth/signIn"', 'status="429"']), 1)
    assert.isAtLeast(delta('tern_upload_bytes_total'), 10_003_000)
    assert.isAtLeast(delta('tern_download_bytes_total'), 3000)
    assert.equal(delta('tern_uploads_in_progress', ['state="receiving"']), 1)
    assert.equal(delta('tern_outbox_deliveries', ['status="failed"']), 1)
    assert.equal(
      delta('tern_rate_limit_refusals_total', ['action="signIn"', 'limit="identifier_ip"']),
      1
    )
    assert.notInclude(
      [...after.keys()].join('\n'),
      shareId,
      'labels are route patterns, never raw URLs'
    )
    assert.notInclude([...after.keys()].join('\n'), fileId)
  }).timeout(60_000)
})
