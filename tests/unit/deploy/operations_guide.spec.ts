import { test } from '@japa/runner'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { helm, renderChart, only } from '#tests/helpers/helm'

/**
 * docs/operations.md stays true: the variables it names exist, its proxy
 * examples accept a chunk and forward the client, its Helm values render.
 */
const GUIDE = readFileSync('docs/operations.md', 'utf8')

/** The fenced code block of `language` (the first one). */
function block(language: string): string {
  const match = GUIDE.match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'))
  if (!match) throw new Error(`docs/operations.md has no ${language} block`)
  return match[1]
}

/** Bytes of a size such as `64m` (nginx) or `64MB` (Caddy). */
function bytes(size: string): number {
  const match = size.match(/^(\d+)\s*([kmg])?b?$/i)!
  const unit =
    { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase() as 'k' | 'm' | 'g'] ?? 1
  return Number(match[1]) * unit
}

/** share.chunkSize's default (app/services/config/definitions.ts). */
function defaultChunkSize(): number {
  const source = readFileSync('app/services/config/definitions.ts', 'utf8')
  return Number(
    source.match(/key: 'share\.chunkSize',\s*type: 'filesize',\s*defaultValue: '(\d+)'/)![1]
  )
}

test.group('Operations guide | docs/operations.md', () => {
  test('every environment variable it names is one Tern reads', async ({ assert }) => {
    const env = readFileSync('start/env.ts', 'utf8')
    // Besides start/env.ts, the variables plugins declare in their manifests (S3_BUCKET, ...).
    const declared = new Set<string>()
    for (const id of readdirSync('plugins', { withFileTypes: true }).filter((entry) =>
      entry.isDirectory()
    )) {
      if (!existsSync(join('plugins', id.name, 'manifest.ts'))) continue
      const { manifest } = await import(`#plugins/${id.name}/manifest`)
      for (const variable of manifest.env ?? []) declared.add(variable.name)
    }
    const named = new Set(
      [...GUIDE.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)(=[^`]*)?`/g)].map((match) => match[1])
    )
    for (const name of [
      'DATA_DIR',
      'APP_KEY',
      'REDIS_URL',
      'TRUST_PROXY',
      'MIGRATE_ON_START',
      'DB_CONNECTION',
    ]) {
      assert.isTrue(named.has(name), `${name} is not explained`)
    }
    for (const name of named) {
      if (declared.has(name)) continue
      assert.match(
        env,
        new RegExp(`^\\s+${name}:`, 'm'),
        `${name} is neither in start/env.ts nor declared by a plugin`
      )
    }
  })

  test('.env.example lists every variable start/env.ts and the plugins read, and no other', async ({
    assert,
  }) => {
    const read = new Set(
      [...readFileSync('start/env.ts', 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
        (m) => m[1]
      )
    )
    for (const id of readdirSync('plugins', { withFileTypes: true }).filter((entry) =>
      entry.isDirectory()
    )) {
      if (!existsSync(join('plugins', id.name, 'manifest.ts'))) continue
      const { manifest } = await import(`#plugins/${id.name}/manifest`)
      for (const variable of manifest.env ?? []) read.add(variable.name)
    }
    // NODE_ENV is set by npm start and the test runner, never by an operator.
    read.delete('NODE_ENV')
    const example = readFileSync('.env.example', 'utf8')
    const listed = new Set([...example.matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]))
    assert.sameMembers([...listed], [...read])
  })

  test('the nginx and Caddy examples accept a default chunk, stream, wait long enough and forward the client', ({
    assert,
  }) => {
    const chunk = defaultChunkSize()
    const nginx = block('nginx')
    assert.isAtLeast(bytes(nginx.match(/client_max_body_size (\S+);/)![1]), chunk)
    assert.include(nginx, 'proxy_request_buffering off;')
    for (const timeout of nginx.matchAll(
      /(proxy_read_timeout|proxy_send_timeout|client_body_timeout) (\d+)s;/g
    )) {
      assert.isAtLeast(Number(timeout[2]), 300, timeout[1])
    }
    assert.match(nginx, /proxy_set_header X-Forwarded-For \$\w+;/)
    assert.include(nginx, 'proxy_set_header X-Forwarded-Proto $scheme;')

    const caddy = block('caddyfile')
    assert.isAtLeast(bytes(caddy.match(/max_size (\S+)/)![1]), chunk)
    assert.match(caddy, /read_timeout 600s/)
    assert.match(caddy, /write_timeout 600s/)
    assert.include(caddy, 'health_uri /api/health/ready')
    assert.match(GUIDE, /TRUST_PROXY=10\.0\.0\.5/)
  })

  test('its Helm values render: three replicas, S3, the Job, the existing Secrets', async ({
    assert,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'tern-ops-values-'))
    try {
      const file = join(dir, 'values-production.yaml')
      writeFileSync(file, block('yaml'))
      const objects = await renderChart([file])
      assert.equal(only(objects, 'Deployment').spec.replicas, 3)
      assert.equal(
        only(objects, 'Job').metadata.annotations!['helm.sh/hook'],
        'pre-install,pre-upgrade'
      )
      const env = only(objects, 'Deployment').spec.template.spec.containers[0].env
      assert.deepInclude(env, {
        name: 'APP_KEY',
        valueFrom: { secretKeyRef: { name: 'tern-app-key', key: 'APP_KEY' } },
      })
      assert.deepInclude(env, {
        name: 'REDIS_URL',
        valueFrom: { secretKeyRef: { name: 'tern-redis', key: 'url' } },
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the schema refusal it quotes is what helm prints', async ({ assert }) => {
    const quoted = GUIDE.match(/\("(at '\/replicaCount'[^"]+)"\)/)![1]
    const refused = await helm(['template', 'tern', 'charts/tern', '--set', 'replicaCount=2'])
    assert.notEqual(refused.code, 0)
    assert.include(refused.stderr, quoted)
  })
})
