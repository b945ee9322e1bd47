/**
 * The chart's pods run Tern: the environment `helm template`
 * renders (ConfigMap, Secret, secretKeyRefs) is all a real Tern process gets;
 * the Job's command migrates with it, and the server then answers the
 * rendered liveness and readiness paths with 200 (database, the test's own
 * redis-server, storage). On SQLite the default values; on MySQL/PostgreSQL
 * the several-replica values pointed at this run's database server.
 */
import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { spawnTern, startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { TestRedisServer, waitFor } from '#tests/helpers/redis_server'
import { freshDatabase, type FreshDatabase } from '#tests/helpers/tern_instances'
import { renderChart, only, type K8sObject } from '#tests/helpers/helm'

const SEVERAL = 'tests/fixtures/helm/several_replicas.yaml'

/** `--set` pairs pointing the chart at this run's database server and the fresh database. */
function databaseValues(fresh: FreshDatabase): string[] {
  const type = fresh.env.DB_CONNECTION
  if (type === 'sqlite') return []
  const pg = type === 'pg'
  return [
    `database.type=${type}`,
    `database.host=${process.env.DB_HOST ?? '127.0.0.1'}`,
    `database.port=${process.env.DB_PORT ?? (pg ? 5432 : 3306)}`,
    `database.user=${process.env.DB_USER ?? (pg ? 'postgres' : 'root')}`,
    `database.password=${process.env.DB_PASSWORD ?? ''}`,
    `database.name=${fresh.env.DB_DATABASE}`,
  ]
}

/**
 * The environment of a rendered container: every variable Tern knows is unset
 * first (nothing leaks from the test runner), then the ConfigMap and the
 * chart Secret's values, as the kubelet would resolve them.
 */
function containerEnv(
  objects: K8sObject[],
  workload: K8sObject
): Record<string, string | undefined> {
  const known = readFileSync('start/env.ts', 'utf8').match(/^\s+([A-Z][A-Z0-9_]+):/gm)!
  const env: Record<string, string | undefined> = {}
  for (const line of known) env[line.trim().slice(0, -1)] = undefined
  Object.assign(env, only(objects, 'ConfigMap').data)
  const secret = only(objects, 'Secret')
  for (const variable of workload.spec.template.spec.containers[0].env) {
    const ref = variable.valueFrom?.secretKeyRef
    if (!ref) env[variable.name] = variable.value
    else if (ref.name === secret.metadata.name) env[variable.name] = secret.stringData[ref.key]
    else throw new Error(`${variable.name} comes from a Secret the test does not have: ${ref.name}`)
  }
  return env
}

async function status(url: string): Promise<number> {
  return fetch(url).then(
    (response) => response.status,
    () => 0
  )
}

test.group('Helm chart | the rendered pods run Tern', (group) => {
  let fresh: FreshDatabase
  let redis: TestRedisServer
  let server: RunningTern | undefined

  group.each.setup(async () => {
    fresh = await freshDatabase()
    redis = await TestRedisServer.start()
    return async () => {
      await server?.stop()
      server = undefined
      await redis.stop()
      await fresh.drop()
    }
  })

  test('the Job (or the start) migrates and the pod answers its probe paths', async ({
    assert,
  }) => {
    const sqlite = fresh.env.DB_CONNECTION === 'sqlite'
    const objects = await renderChart(sqlite ? [] : [SEVERAL], [
      ...databaseValues(fresh),
      `redis.url=${redis.url}`,
    ])
    const deployment = only(objects, 'Deployment')
    const env: Record<string, string | undefined> = {
      ...containerEnv(objects, deployment),
      DATA_DIR: fresh.env.DATA_DIR,
    }
    assert.equal(env.REDIS_URL, redis.url)

    // The Job when the chart renders one (a database server), else the image's start (SQLite).
    const job = objects.find((object) => object.kind === 'Job')
    assert.equal(Boolean(job), !sqlite)
    assert.equal(env.MIGRATE_ON_START, sqlite ? 'true' : 'false')
    const migrateEnv = job ? { ...containerEnv(objects, job), DATA_DIR: fresh.env.DATA_DIR } : env
    const command: string[] = job
      ? job.spec.template.spec.containers[0].command
      : ['node', 'ace.js', 'tern:migrate']
    assert.equal(command[0], 'node')
    const migration = await spawnTern(command.slice(1), migrateEnv, 120_000)
    assert.equal(migration.code, 0, migration.output)

    const port = await freePort()
    server = startTern(
      ['bin/server.ts'],
      { ...env, PORT: String(port), HOST: '127.0.0.1' },
      120_000
    )
    const container = deployment.spec.template.spec.containers[0]
    const base = `http://127.0.0.1:${port}`
    await waitFor(
      async () => (await status(base + container.readinessProbe.httpGet.path)) === 200,
      60_000,
      `${base}${container.readinessProbe.httpGet.path} to answer 200`
    ).catch((error) => {
      throw new Error(`${error.message}\n${server!.output()}`)
    })
    const ready = (await (await fetch(base + container.readinessProbe.httpGet.path)).json()) as any
    assert.equal(ready.checks.database.status, 'ok')
    assert.equal(ready.checks.redis.status, 'ok')
    assert.equal(await status(base + container.livenessProbe.httpGet.path), 200)
    assert.equal(await status(base + container.startupProbe.httpGet.path), 200)
  }).timeout(150_000)
})
