/**
 * The container image and compose.yaml, through podman:
 * the image is built from the working tree on a Debian base made with debootstrap
 * (no registry here), then run as an operator would: home page and API served,
 * data kept across a restart with the same volume, non-root, healthy, stopped by
 * SIGTERM in well under podman's 10 s kill; compose's Tern service runs with its
 * own environment pointed at this machine's MariaDB and Redis.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { parse } from 'yaml'
import { freePort } from '#tests/helpers/test_database'
import { waitFor } from '#tests/helpers/redis_server'
import { startS3Server } from '#tests/helpers/s3_server'
import {
  buildTernImage,
  podman,
  PROJECT_ROOT,
  removeAll,
  runContainer,
  TERN_IMAGE,
} from '#tests/containers/podman'

const BUILD_TIMEOUT = 25 * 60_000

/** Waits until the container's Tern answers its liveness probe. */
async function waitUntilLive(base: string, name: string) {
  await waitFor(
    async () => {
      const state = await podman(['inspect', name, '--format', '{{.State.Status}}'])
      if (state === 'exited')
        throw new Error(`container ${name} exited: ${await podman(['logs', '--tail', '20', name])}`)
      return fetch(`${base}/api/health/live`).then(
        (r) => r.ok,
        () => false
      )
    },
    90_000,
    `${name} to answer /api/health/live`
  )
}

test.group('Container image', () => {
  test('serves Tern as non-root, keeps /data across a restart and stops on SIGTERM', async ({
    assert,
  }) => {
    const build = await buildTernImage()
    console.log(
      `container: image built (or taken from the layer cache) in ${build.seconds.toFixed(1)} s`
    )
    const suffix = randomBytes(4).toString('hex')
    const [first, second, volume] = [`tern-a-${suffix}`, `tern-b-${suffix}`, `tern-data-${suffix}`]
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    try {
      await runContainer(first, { env: { PORT: String(port) }, volume })
      await waitUntilLive(base, first)

      const home = await fetch(`${base}/`)
      assert.equal(home.status, 200)
      assert.include(home.headers.get('content-type') ?? '', 'text/html')
      const configs = await fetch(`${base}/api/configs`)
      assert.equal(configs.status, 200)
      assert.isArray(await configs.json())

      const account = {
        email: `op-${suffix}@example.com`,
        username: `op${suffix}`,
        password: 'container-pass-1',
      }
      const signUp = await fetch(`${base}/api/auth/signUp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      })
      assert.oneOf(signUp.status, [200, 201], await signUp.clone().text())

      // Every kind of page renders on the server from the image's own bundle (the
      // browser packages are not installed in it: the server bundle carries them).
      const cookie = (signUp.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ')
      for (const [path, text] of [
        ['/', 'ant-'],
        ['/auth/signIn', 'ant-'],
        ['/upload', 'ant-'],
        ['/account', account.username],
        // /s/:id redirects to /share/:id, which renders the share's state (here: not found).
        ['/s/no-such-share', 'ant-'],
        ['/admin', 'id='],
      ]) {
        const page = await fetch(`${base}${path}`, { headers: { cookie } })
        const html = await page.text()
        assert.equal(page.status, 200, `${path}: ${html.slice(0, 300)}`)
        assert.include(html, text, `${path} is rendered on the server`)
      }

      // Non-root: the server process (PID 1) and exec'd commands run as tern (uid 10001).
      assert.equal(await podman(['exec', first, 'id', '-u']), '10001')
      assert.equal(
        await podman(['top', first, 'user', 'pid']).then(
          (t) => t.split('\n')[1].trim().split(/\s+/)[0]
        ),
        'tern'
      )
      // The transfer GC pacer's V8 flags are given at launch (scripts/server_flags.js).
      const cmdline = await podman(['exec', first, 'sh', '-c', "tr '\\0' ' ' < /proc/1/cmdline"])
      assert.include(cmdline, '--expose-gc --no-concurrent-array-buffer-sweeping bin/server.js')
      // The image's HEALTHCHECK passes (podman exits non-zero when it fails).
      await podman(['healthcheck', 'run', first])

      const stopping = Date.now()
      await podman(['stop', '-t', '10', first], 30_000)
      const stopMs = Date.now() - stopping
      const exitCode = await podman(['inspect', first, '--format', '{{.State.ExitCode}}'])
      console.log(`container: stopped by SIGTERM in ${stopMs} ms, exit code ${exitCode}`)
      assert.equal(exitCode, '0', 'Tern exits 0 on SIGTERM (137 would mean podman had to kill it)')
      assert.isBelow(stopMs, 5000)

      // A new container on the same volume knows the account (database and APP_KEY kept in /data).
      await runContainer(second, { env: { PORT: String(port) }, volume })
      await waitUntilLive(base, second)
      const signIn = await fetch(`${base}/api/auth/signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      })
      assert.equal(signIn.status, 200, await signIn.clone().text())
    } finally {
      await removeAll([first, second], [volume])
    }
  }).timeout(BUILD_TIMEOUT)

  test('runs on a read-only root file system, writing only to /data and tmpfs', async ({
    assert,
  }) => {
    await buildTernImage()
    const suffix = randomBytes(4).toString('hex')
    const [name, volume] = [`tern-ro-${suffix}`, `tern-data-ro-${suffix}`]
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    try {
      await runContainer(name, { env: { PORT: String(port) }, volume, readOnly: true })
      await waitUntilLive(base, name)
      assert.include(
        await podman(['exec', name, 'sh', '-c', 'touch /app/x 2>&1 || true']),
        'Read-only file system'
      )
      const ready = await fetch(`${base}/api/health/ready`)
      assert.equal(ready.status, 200, await ready.clone().text())
      const home = await fetch(`${base}/`)
      assert.equal(home.status, 200)
      const signUp = await fetch(`${base}/api/auth/signUp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `ro-${suffix}@example.com`,
          username: `ro${suffix}`,
          password: 'container-pass-1',
        }),
      })
      assert.oneOf(signUp.status, [200, 201], await signUp.clone().text())
    } finally {
      await removeAll([name], [volume])
    }
  }).timeout(BUILD_TIMEOUT)

  test('the final image holds no build tools, no CA bundle of the build machine, and is reported by size', async ({
    assert,
  }) => {
    await buildTernImage()
    const found = await podman([
      'run',
      '--rm',
      '--network',
      'none',
      '--entrypoint',
      'sh',
      TERN_IMAGE,
      '-c',
      'for t in gcc cc g++ make python3 npm curl; do command -v $t; done; ls /etc/ssl/certs /run/secrets 2>/dev/null; true',
    ])
    assert.equal(found, '', 'the final stage must not carry build tools or certificates')
    const size = Number(await podman(['image', 'inspect', TERN_IMAGE, '--format', '{{.Size}}']))
    console.log(`container: image size ${(size / 1e6).toFixed(0)} MB`)
    // About 120 MB of it is the Node 24 binary, about 110 MB the production dependencies.
    assert.isBelow(size, 450e6)
  }).timeout(BUILD_TIMEOUT)
})

test.group('compose.yaml', () => {
  const text = readFileSync(`${PROJECT_ROOT}/compose.yaml`, 'utf8')
  const compose = parse(text)

  test('describes Tern, MariaDB, Redis and S3 with every variable explained', ({ assert }) => {
    assert.includeMembers(Object.keys(compose.services), ['tern', 'mariadb', 'redis', 's3'])
    assert.equal(compose.services.tern.build.context, '.')
    assert.equal(compose.services.tern.environment.DB_HOST, 'mariadb')
    assert.match(compose.services.tern.environment.REDIS_URL, /^redis:\/\/redis:/)
    const lines = text.split('\n')
    for (const [name, service] of Object.entries<any>(compose.services)) {
      for (const key of Object.keys(service.environment ?? {})) {
        const at = lines.findIndex((line) => line.trim().startsWith(`${key}:`))
        assert.isAbove(at, 0, `${name}.${key} is in the file`)
        assert.match(lines[at - 1].trim(), /^#/, `${name}.${key} has a comment explaining it`)
      }
    }
  })

  test('Tern waits for a healthy S3 store and its bucket; every image is pinned to a version', ({
    assert,
  }) => {
    const services = compose.services
    assert.deepEqual(services.s3.healthcheck.test, ['CMD', 'mc', 'ready', 'local'])
    assert.deepInclude(services.tern.depends_on, {
      's3': { condition: 'service_healthy' },
      's3-bucket': { condition: 'service_completed_successfully' },
    })
    assert.deepEqual(services['s3-bucket'].depends_on, { s3: { condition: 'service_healthy' } })
    assert.equal(services['s3-bucket'].restart, 'no')
    for (const [name, service] of Object.entries<any>(services)) {
      // A version tag or a digest, never an implicit or explicit "latest".
      const [reference, digest] = String(service.image).split('@')
      const lastPart = reference.slice(reference.lastIndexOf('/') + 1)
      const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : ''
      const pinned =
        /^sha256:[0-9a-f]{64}$/.test(digest ?? '') || (/\d/.test(tag) && !/latest/i.test(tag))
      assert.isTrue(pinned, `${name}: "${service.image}" is not pinned to a version`)
    }
    const version = JSON.parse(readFileSync(`${PROJECT_ROOT}/package.json`, 'utf8')).version
    assert.equal(
      services.tern.image,
      `localhost/tern:${version}`,
      "Tern's image carries package.json's version"
    )
    // Tern's S3 settings come from the environment, pointing at the s3 service and the job's bucket.
    assert.include(services.tern.environment, {
      S3_ENABLED: 'true',
      S3_ENDPOINT: 'http://s3:9000',
      S3_BUCKET: 'tern',
      S3_FORCE_PATH_STYLE: 'true',
    })
    assert.equal(services.tern.environment.S3_KEY, services.s3.environment.MINIO_ROOT_USER)
    assert.equal(services.tern.environment.S3_SECRET, services.s3.environment.MINIO_ROOT_PASSWORD)
    assert.include(services['s3-bucket'].entrypoint.join(' '), 'mc mb --ignore-existing s3/tern')
  })

  test("its Tern service runs with podman against this machine's MariaDB, Redis and an S3 store", async ({
    assert,
  }) => {
    await buildTernImage()
    const mysql = await import('mysql2/promise')
    const admin = await mysql.createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER ?? 'root',
      password: process.env.DB_PASSWORD ?? '',
    })
    const suffix = randomBytes(4).toString('hex')
    const database = `tern_compose_${suffix}`
    const name = `tern-compose-${suffix}`
    const port = await freePort()
    const s3 = await startS3Server({ bucket: 'tern' })
    await admin.query(
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
    )
    try {
      // compose's own environment; only the service addresses and secrets are this machine's.
      const env: Record<string, string> = {
        ...compose.services.tern.environment,
        PORT: String(port),
        APP_KEY: randomBytes(32).toString('base64url'),
        DB_HOST: admin.config.host!,
        DB_PORT: String(admin.config.port),
        DB_USER: admin.config.user!,
        DB_PASSWORD: admin.config.password ?? '',
        DB_DATABASE: database,
        REDIS_URL: `redis://127.0.0.1:${process.env.REDIS_PORT ?? 6379}`,
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_KEY: s3.accessKeyId,
        S3_SECRET: s3.secretAccessKey,
        APP_URL: `http://127.0.0.1:${port}`,
      }
      assert.notMatch(Object.values(env).join(' '), /\$\{/, 'every interpolated value is replaced')
      await runContainer(name, { env })
      await waitUntilLive(`http://127.0.0.1:${port}`, name)
      // Live comes first; ready follows once the Redis connection is up (a moment later).
      const readyUrl = `http://127.0.0.1:${port}/api/health/ready`
      await waitFor(
        () =>
          fetch(readyUrl).then(
            (r) => r.status === 200,
            () => false
          ),
        30_000,
        `${name} to be ready`
      ).catch(() => {})
      const ready = await fetch(readyUrl)
      const body = (await ready.json()) as { checks: Record<string, { status: string }> }
      assert.equal(ready.status, 200, JSON.stringify(body))
      for (const check of ['database', 'migrations', 'redis', 'storage']) {
        assert.equal(body.checks[check].status, 'ok', check)
      }

      // The S3 store is set from compose's S3_* variables on the first start, with no admin
      // step: an upload lands in the bucket and is served back; readiness probes S3 and
      // fails once S3 is gone.
      const base = `http://127.0.0.1:${port}`
      const signUp = await fetch(`${base}/api/auth/signUp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `admin-${suffix}@example.com`,
          username: `admin${suffix}`,
          password: 'compose-pass-1',
        }),
      })
      assert.oneOf(signUp.status, [200, 201])
      const cookie = signUp.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      const send = (method: string, path: string, payload?: string, type = 'application/json') =>
        fetch(`${base}${path}`, {
          method,
          headers: { 'content-type': type, cookie },
          body: payload,
        })
      assert.equal(
        (
          await send(
            'POST',
            '/api/shares',
            JSON.stringify({ id: 'compose-s3', expiration: 'never', recipients: [] })
          )
        ).status,
        201
      )
      const chunk = await send(
        'POST',
        '/api/shares/compose-s3/files?name=a.txt&chunkIndex=0&totalChunks=1',
        'in the bucket',
        'application/octet-stream'
      )
      assert.equal(chunk.status, 201, await chunk.clone().text())
      const fileId = ((await chunk.json()) as { id: string }).id
      assert.equal((await send('POST', '/api/shares/compose-s3/complete')).status, 202)
      assert.equal(
        await (await send('GET', `/api/shares/compose-s3/files/${fileId}`)).text(),
        'in the bucket'
      )
      assert.isNotEmpty(
        readdirSync(join(s3.directory, s3.bucket)),
        'the file is stored in the bucket'
      )
      assert.equal((await fetch(`${base}/api/health/ready`)).status, 200)
      await s3.close()
      const gone = await fetch(`${base}/api/health/ready`)
      assert.equal(gone.status, 503)
      assert.equal(((await gone.json()) as typeof body).checks.storage.status, 'failed')
    } finally {
      await s3.close()
      await removeAll([name])
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``)
      await admin.end()
    }
  }).timeout(BUILD_TIMEOUT)
})
