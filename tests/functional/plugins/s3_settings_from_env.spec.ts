/**
 * The S3 settings' first values from the environment (S3_ENABLED, S3_ENDPOINT,
 * S3_BUCKET, ...: `seedFromEnv` in plugins/s3-storage/src/config.ts), as
 * compose.yaml sets them: a real Tern process on a fresh database stores an
 * uploaded file in the bucket (a real S3 endpoint, s3rver) and serves it back
 * with no admin step; what an admin changes afterwards stays when the server
 * starts again with the same environment; a value the setting refuses stops
 * the start with one line naming the variable.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { test } from '@japa/runner'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'
import { startTern } from '#tests/helpers/spawn_tern'
import { migrate, startTernChild, type TernChild } from '#tests/helpers/tern_child'
import { freshDatabase, type FreshDatabase } from '#tests/helpers/tern_instances'

/** One request to the child; JSON answers parsed. */
async function call(
  child: TernChild,
  method: string,
  path: string,
  options: { json?: unknown; body?: Buffer; cookie?: string } = {}
) {
  const headers: Record<string, string> = {}
  if (options.cookie) headers.cookie = options.cookie
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  if (options.body) headers['content-type'] = 'application/octet-stream'
  const body =
    options.json !== undefined
      ? JSON.stringify(options.json)
      : options.body
        ? new Uint8Array(options.body)
        : undefined
  const response = await fetch(`${child.url}${path}`, { method, headers, body })
  const bytes = Buffer.from(await response.arrayBuffer())
  const json = (response.headers.get('content-type') ?? '').includes('json')
    ? JSON.parse(bytes.toString('utf8'))
    : null
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  return { status: response.status, bytes, json, cookie }
}

/** Uploads `content` as a one-file share through the API; resolves to the share and file ids. */
async function shareFile(child: TernChild, cookie: string, id: string, content: Buffer) {
  const created = await call(child, 'POST', '/api/shares', {
    cookie,
    json: { id, expiration: 'never', recipients: [] },
  })
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.bytes}`)
  const chunk = await call(
    child,
    'POST',
    `/api/shares/${id}/files?name=env.bin&chunkIndex=0&totalChunks=1`,
    { cookie, body: content }
  )
  if (chunk.status !== 201) throw new Error(`upload: ${chunk.status} ${chunk.bytes}`)
  const completed = await call(child, 'POST', `/api/shares/${id}/complete`, { cookie })
  if (completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.bytes}`)
  return chunk.json.id as string
}

test.group('S3 settings from the environment', (group) => {
  let s3: S3Server
  let database: FreshDatabase
  let env: Record<string, string>
  group.setup(async () => {
    s3 = await startS3Server({ bucket: 'tern-env' })
    database = await freshDatabase()
    env = {
      ...database.env,
      TERN_PLUGINS: 'local-storage,email,s3-storage',
      S3_ENABLED: 'true',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'eu-west-1',
      S3_BUCKET: s3.bucket,
      S3_BUCKET_PATH: 'from-env',
      S3_KEY: s3.accessKeyId,
      S3_SECRET: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'TRUE',
    }
    await migrate(env)
    return async () => {
      await s3.close()
      await database.drop()
    }
  })

  /** The keys stored in the bucket under `prefix`, read through the S3 API. */
  const storedKeys = async (prefix: string) => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    })
    try {
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix })
      )
      return (listed.Contents ?? []).map((object) => object.Key!)
    } finally {
      client.destroy()
    }
  }

  test('a fresh database stores files in the bucket from the first start; an admin change stays across restarts', async ({
    assert,
  }) => {
    const content = Buffer.from('stored in S3 without an admin step')
    let child = await startTernChild(env)
    try {
      const signUp = await call(child, 'POST', '/api/auth/signUp', {
        json: { username: 'envadmin', email: 'envadmin@example.com', password: 'password123' },
      })
      assert.equal(signUp.status, 201, signUp.bytes.toString())
      const cookie = signUp.cookie

      const fileId = await shareFile(child, cookie, 'from-env-1', content)
      const download = await call(child, 'GET', `/api/shares/from-env-1/files/${fileId}`, {
        cookie,
      })
      assert.equal(download.status, 200)
      assert.deepEqual(download.bytes, content)
      const keys = await storedKeys('from-env/')
      assert.lengthOf(keys, 1, 'the file is an object in the bucket, under S3_BUCKET_PATH')
      assert.match(keys[0], /^from-env\/shares\/from-env-1\//)

      // The settings are stored as an admin would have set them (the secret masked).
      const settings = await call(child, 'GET', '/api/configs/admin/s3?ext=1', { cookie })
      assert.equal(settings.status, 200)
      const value = (key: string) =>
        settings.json.find((variable: { key: string }) => variable.key === key)?.value
      assert.equal(value('s3.enabled'), 'true')
      assert.equal(value('s3.endpoint'), s3.endpoint)
      assert.equal(value('s3.region'), 'eu-west-1')
      assert.equal(value('s3.bucketName'), s3.bucket)
      assert.equal(value('s3.forcePathStyle'), 'true')
      assert.notEqual(value('s3.secret'), s3.secretAccessKey)

      // An admin moves new files under another prefix; a restart with the same environment keeps it.
      const patch = await call(child, 'PATCH', '/api/configs/admin', {
        cookie,
        json: [{ key: 's3.bucketPath', value: 'changed-by-admin' }],
      })
      assert.equal(patch.status, 200, patch.bytes.toString())
      await child.stop()
      child = await startTernChild(env)
      const again = await call(child, 'GET', '/api/configs/admin/s3?ext=1', { cookie })
      assert.equal(
        again.json.find((variable: { key: string }) => variable.key === 's3.bucketPath')?.value,
        'changed-by-admin'
      )
      const secondId = await shareFile(child, cookie, 'from-env-2', content)
      assert.equal(
        (await call(child, 'GET', `/api/shares/from-env-2/files/${secondId}`, { cookie })).status,
        200
      )
      assert.lengthOf(await storedKeys('changed-by-admin/shares/from-env-2/'), 1)
    } finally {
      await child.stop()
    }
  }).timeout(120_000)

  test('a value the setting refuses stops the start with one line naming the variable', async ({
    assert,
  }) => {
    const tern = startTern(
      ['bin/server.ts'],
      {
        ...env,
        NODE_ENV: 'production',
        TERN_WORKERS: '1',
        HOST: '127.0.0.1',
        PORT: '0',
        S3_ENDPOINT: 'ftp://files.example.com',
      },
      60_000
    )
    const { code, output } = await tern.exited
    assert.equal(code, 1, output)
    const lines = output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'))
    assert.deepEqual(lines, [
      'Tern cannot start: E_INVALID_CONFIG_SEED: Value for environment variable "S3_ENDPOINT" (the first value of s3.endpoint) is refused: The S3 endpoint must be an http:// or https:// URL',
    ])
  }).timeout(70_000)
})
