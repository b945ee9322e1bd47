/**
 * Pingvin's configuration rows written into Tern's database by
 * `importPingvinConfig` (docs/design/pingvin_import.md §7): values carried
 * and typed, the refusals of Tern's own validation (the same messages as
 * PATCH /api/configs/admin, asked over HTTP), keys Tern has no setting for,
 * secrets kept but never reported, Tern's values never overwritten, the dry
 * run, and the caller's transaction.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import ConfigService from '#services/config/config_service'
import { ConfigRegistry } from '#extensions/config/registry'
import { coreConfigCategories } from '#services/config/definitions'
import { importPingvinConfig, type PingvinConfigRow } from '#services/pingvin_import/config_mapping'
import { authHeaderFor, createUser } from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

/** A Pingvin `Config` row as better-sqlite3 returns it (the columns the importer ignores included). */
function row(key: string, value: string | null, type = 'string'): PingvinConfigRow {
  const [category, ...rest] = key.split('.')
  return {
    name: rest.join('.'),
    category,
    value,
    type,
    defaultValue: '',
    obscured: 0,
    secret: 1,
    locked: 0,
    order: 0,
    updatedAt: 1_700_000_000_000,
  }
}

async function stored(key: string) {
  return (await ConfigVariable.find(key))?.value ?? null
}

async function storeTern(key: string, value: string | null) {
  await ConfigVariable.updateOrCreate({ key }, { value })
}

/** Every stored row, for before/after comparisons. */
async function allRows() {
  const rows = await db.from('config_variables').select('key', 'value').orderBy('key')
  return rows.map((r: { key: string; value: string | null }) => `${r.key}=${r.value}`)
}

const SMTP_SECRET = 'pingvin smtp p4ss!'
const GITHUB_SECRET = 'ghs_0123456789abcdef'
const REDIS_URL = 'redis://:hunter2@cache.internal:6379'
const JWT = 'c2VjcmV0IGp3dCBrZXk='

/** A typical Pingvin 1.13 configuration: a few values set, most left at their default. */
function pingvinRows(): PingvinConfigRow[] {
  return [
    row('internal.jwtSecret', JWT),
    row('general.appName', 'Team files'),
    row('general.appUrl', 'https://files.example.org'),
    row('general.secureCookies', 'true', 'boolean'),
    row('general.showHomePage', null, 'boolean'),
    row('general.sessionDuration', '720 hours', 'timespan'),
    row('share.maxExpiration', '30', 'timespan'),
    row('share.shareIdLength', '12', 'number'),
    row('share.maxSize', '5000000000', 'filesize'),
    row('share.chunkSize', '', 'number'),
    row('share.allowUnauthenticatedShares', 'true', 'boolean'),
    row(
      'email.shareRecipientsMessage',
      'Hi!\n{creator} ({creatorEmail}) shared {shareUrl}',
      'text'
    ),
    row('email.inviteSubject', null),
    row('smtp.enabled', 'true', 'boolean'),
    row('smtp.host', 'mail.example.org'),
    row('smtp.port', '587', 'number'),
    row('smtp.email', 'noreply@example.org'),
    row('smtp.password', SMTP_SECRET),
    row('oauth.github-enabled', 'true', 'boolean'),
    row('oauth.github-clientId', 'Iv1.abc'),
    row('oauth.github-clientSecret', GITHUB_SECRET),
    row('oauth.discord-limitedUsers', '1234,5678'),
    row('oauth.oidc-rolePath', 'roles'),
    row('cache.redis-enabled', 'true', 'boolean'),
    row('cache.redis-url', REDIS_URL),
    row('cache.ttl', null, 'number'),
    row('s3.useChecksum', 'false', 'boolean'),
    row('forkonly.feature', 'on'),
  ]
}

test.group('Pingvin import | configuration', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test("carries Pingvin's values to Tern's variables, typed, secrets included", async ({
    assert,
    client,
  }) => {
    const result = await importPingvinConfig(pingvinRows(), { dryRun: false })

    assert.sameMembers(
      result.imported.map((item) => item.key),
      [
        'general.appName',
        'general.appUrl',
        'general.secureCookies',
        'general.sessionDuration',
        'share.maxExpiration',
        'share.shareIdLength',
        'share.maxSize',
        'share.allowUnauthenticatedShares',
        'email.shareRecipientsMessage',
        'smtp.enabled',
        'smtp.host',
        'smtp.port',
        'smtp.email',
        'smtp.password',
        'oauth.github-enabled',
        'oauth.github-clientId',
        'oauth.github-clientSecret',
      ]
    )
    for (const item of result.imported) assert.equal(item.ternKey, item.key)
    const template = result.imported.find((item) => item.key === 'email.shareRecipientsMessage')!
    assert.match(template.warning!, /^uses \{creatorEmail\}, which Tern does not fill/)

    assert.strictEqual(await configService.get('general.appName'), 'Team files')
    assert.strictEqual(await configService.get('general.secureCookies'), true)
    assert.strictEqual(await configService.get('general.sessionDuration'), '720 hours')
    // An old source's bare number of hours.
    assert.strictEqual(await configService.get('share.maxExpiration'), '30 hours')
    assert.strictEqual(await configService.get('share.shareIdLength'), 12)
    assert.strictEqual(await configService.get('share.maxSize'), 5_000_000_000)
    assert.strictEqual(await configService.get('smtp.port'), 587)
    assert.equal(await stored('smtp.password'), SMTP_SECRET)
    assert.equal(await stored('oauth.github-clientSecret'), GITHUB_SECRET)
    assert.equal(
      await stored('email.shareRecipientsMessage'),
      'Hi!\n{creator} ({creatorEmail}) shared {shareUrl}'
    )

    // NULL and '' mean Pingvin's default was in effect: Tern's own default stays.
    assert.sameMembers(
      result.unchanged.map((item) => `${item.key}:${item.kind}`),
      [
        'general.showHomePage:default',
        'share.chunkSize:default',
        'email.inviteSubject:default',
        'cache.ttl:default',
      ]
    )
    assert.isNull(await stored('share.chunkSize'))
    assert.strictEqual(await configService.get('general.showHomePage'), true)

    // The public configuration a client reads shows the imported values.
    const response = await client.get('/api/configs')
    response.assertStatus(200)
    const byKey = new Map(
      (response.body() as { key: string; value: string }[]).map((item) => [item.key, item.value])
    )
    assert.equal(byKey.get('general.appName'), 'Team files')
    assert.equal(byKey.get('share.maxSize'), '5000000000')
    assert.isFalse(byKey.has('smtp.password'))
  })

  test('settings Tern has no equivalent for are reported with what to do, and no value reaches the report', async ({
    assert,
  }) => {
    const before = await allRows()
    const result = await importPingvinConfig(
      pingvinRows().filter(
        (r) =>
          ['internal', 'cache', 'forkonly'].includes(r.category) ||
          r.name.includes('limitedUsers') ||
          r.name.includes('rolePath') ||
          r.name === 'useChecksum'
      ),
      { dryRun: false }
    )
    assert.deepEqual(result.imported, [])
    const reasons = new Map(result.skipped.map((item) => [item.key, item]))
    assert.deepEqual(
      [...reasons.values()].map((item) => `${item.key}:${item.kind}`),
      [
        'cache.redis-enabled:no-equivalent',
        'cache.redis-url:no-equivalent',
        'forkonly.feature:unknown',
        'internal.jwtSecret:dropped',
        'oauth.discord-limitedUsers:no-equivalent',
        'oauth.oidc-rolePath:no-equivalent',
        's3.useChecksum:no-equivalent',
      ]
    )
    assert.include(reasons.get('cache.redis-url')!.reason, 'set REDIS_URL')
    assert.include(reasons.get('cache.redis-enabled')!.reason, 'set REDIS_URL')
    assert.include(reasons.get('internal.jwtSecret')!.reason, 'every user signs in again')
    assert.include(reasons.get('oauth.discord-limitedUsers')!.reason, 'oauth.discord-limitedGuild')
    assert.equal(
      reasons.get('forkonly.feature')!.reason,
      'unknown key: not a setting of Pingvin Share 1.x'
    )
    assert.deepEqual(await allRows(), before)

    const everything = JSON.stringify(await importPingvinConfig(pingvinRows(), { dryRun: true }))
    for (const secret of [SMTP_SECRET, GITHUB_SECRET, REDIS_URL, 'hunter2', JWT])
      assert.notInclude(everything, secret)
  })

  test("a value Tern's validation refuses is reported with the message PATCH /api/configs/admin answers, and never stored", async ({
    assert,
    client,
  }) => {
    const result = await importPingvinConfig(
      [
        row('share.shareIdLength', '99', 'number'),
        row('general.appUrl', 'ftp://files.example.org'),
        row('general.sessionDuration', '0 hours', 'timespan'),
        row('share.maxExpiration', 'forever', 'timespan'),
        row('smtp.port', 'submission', 'number'),
        row('smtp.email', 'not an address'),
        row('share.allowRegistration', 'yes', 'boolean'),
        row('oauth.discord-limitedGuild', 'my-guild'),
        row('share.maxSize', '9007199254740993', 'filesize'),
      ],
      { dryRun: false }
    )
    assert.deepEqual(result.imported, [])
    const messages = Object.fromEntries(
      result.skipped.map((item) => [item.key, `${item.kind}: ${item.reason}`])
    )
    assert.deepEqual(messages, {
      'general.appUrl': 'invalid: App URL must be an http(s) URL',
      'general.sessionDuration': 'invalid: Session duration must be longer than 0',
      'oauth.discord-limitedGuild': 'invalid: Discord guild ID must be a number',
      'share.allowRegistration': 'invalid: Pingvin value is not a boolean (true or false)',
      'share.maxExpiration':
        'invalid: Config variable share.maxExpiration must be a timespan like "7 days" (units: minutes, hours, days, weeks, months, years)',
      'share.maxSize': 'invalid: Config variable share.maxSize must be a whole number of bytes',
      'share.shareIdLength': 'invalid: Share ID length must be between 2 and 50',
      'smtp.email': 'invalid: SMTP email must be an email address',
      'smtp.port': 'invalid: Pingvin value is not a number',
    })
    for (const key of Object.keys(messages)) assert.isNull(await stored(key), key)

    // The admin route refuses the same values with the same words.
    const admin = await createUser({ admin: true })
    const patches: [string, unknown][] = [
      ['share.shareIdLength', 99],
      ['general.appUrl', 'ftp://files.example.org'],
      ['general.sessionDuration', '0 hours'],
      ['oauth.discord-limitedGuild', 'my-guild'],
      ['smtp.email', 'not an address'],
    ]
    for (const [key, value] of patches) {
      const response = await client
        .patch('/api/configs/admin')
        .header(...(await authHeaderFor(admin)))
        .json([{ key, value }])
      response.assertStatus(400)
      assert.equal(
        `invalid: ${(response.body() as { message: string }).message}`,
        messages[key],
        key
      )
    }
  })

  test("Tern's own values are kept: a different one is a collision, the same one was already imported", async ({
    assert,
  }) => {
    await storeTern('general.appName', 'Our Tern')
    await storeTern('smtp.port', '587')
    await storeTern('smtp.host', '')
    const result = await importPingvinConfig(
      [
        row('general.appName', 'Team files'),
        row('smtp.port', '587', 'number'),
        row('smtp.host', 'mail.example.org'),
      ],
      { dryRun: false }
    )
    assert.deepEqual(result.skipped, [
      {
        key: 'general.appName',
        kind: 'collision',
        reason:
          'Tern already has its own value for general.appName: kept (an import never overwrites a setting)',
      },
    ])
    assert.deepEqual(result.unchanged, [{ key: 'smtp.port', kind: 'already' }])
    // An empty stored value is Tern's default: free to take the imported one.
    assert.deepEqual(result.imported, [{ key: 'smtp.host', ternKey: 'smtp.host' }])
    assert.equal(await stored('general.appName'), 'Our Tern')
    assert.equal(await stored('smtp.host'), 'mail.example.org')
  })

  test('running the import again writes nothing and reports every value as already there', async ({
    assert,
  }) => {
    const first = await importPingvinConfig(pingvinRows(), { dryRun: false })
    const afterFirst = await allRows()
    const second = await importPingvinConfig(pingvinRows(), { dryRun: false })
    assert.deepEqual(second.imported, [])
    assert.deepEqual(second.skipped, first.skipped)
    assert.sameMembers(
      second.unchanged.filter((item) => item.kind === 'already').map((item) => item.key),
      first.imported.map((item) => item.key)
    )
    assert.deepEqual(await allRows(), afterFirst)
  })

  test('a dry run writes nothing and reports what the real run then does', async ({ assert }) => {
    const before = await allRows()
    const dry = await importPingvinConfig(pingvinRows(), { dryRun: true })
    assert.deepEqual(await allRows(), before)
    assert.lengthOf(dry.imported, 17)
    const real = await importPingvinConfig(pingvinRows(), { dryRun: false })
    assert.deepEqual(real, dry)
    assert.notDeepEqual(await allRows(), before)
  })

  test("S3 settings are carried with path-style requests on, as Pingvin's client always sent them", async ({
    assert,
  }) => {
    const result = await importPingvinConfig(
      [
        row('s3.enabled', 'true', 'boolean'),
        row('s3.bucketName', 'pingvin'),
        row('s3.endpoint', 'http://minio:9000'),
        row('s3.secret', 's3-secret-key'),
      ],
      { dryRun: false }
    )
    assert.deepEqual(result.skipped, [])
    assert.deepInclude(result.imported, {
      key: 's3.forcePathStyle',
      ternKey: 's3.forcePathStyle',
      derived: true,
    })
    assert.equal(await stored('s3.forcePathStyle'), 'true')
    assert.equal(await stored('s3.bucketName'), 'pingvin')
    assert.equal(await stored('s3.secret'), 's3-secret-key')

    // An administrator who chose virtual-host style in Tern keeps it.
    await ConfigVariable.query()
      .whereIn('key', ['s3.forcePathStyle', 's3.bucketName'])
      .update({ value: null })
    await storeTern('s3.forcePathStyle', 'false')
    const again = await importPingvinConfig([row('s3.bucketName', 'pingvin')], { dryRun: false })
    assert.deepEqual(
      again.skipped.map((item) => `${item.key}:${item.kind}`),
      ['s3.forcePathStyle:collision']
    )
    assert.equal(await stored('s3.forcePathStyle'), 'false')
  })

  test('a setting whose plugin is not enabled is reported with how to bring it over, and nothing is written', async ({
    assert,
  }) => {
    // A Tern with the core settings only (no s3-storage, github or ldap plugin), of a version without the legal settings.
    const registry = new ConfigRegistry()
    for (const category of coreConfigCategories)
      if (category.id !== 'legal') registry.defineCategory(category)
    const before = await allRows()
    const result = await importPingvinConfig(
      [
        row('s3.bucketName', 'pingvin'),
        row('oauth.github-clientId', 'Iv1.abc'),
        row('ldap.url', 'ldap://dir'),
        row('legal.enabled', 'true', 'boolean'),
        row('smtp.host', 'mail.example.org'),
      ],
      { dryRun: false, registry }
    )
    assert.deepEqual(result.imported, [{ key: 'smtp.host', ternKey: 'smtp.host' }])
    const reasons = Object.fromEntries(
      result.skipped.map((item) => [item.key, `${item.kind}: ${item.reason}`])
    )
    assert.deepEqual(reasons, {
      'ldap.url':
        "unavailable: Tern's setting ldap.url comes from the ldap plugin, which is not enabled: add ldap to TERN_PLUGINS, restart Tern and run the import again with --merge",
      'legal.enabled':
        'unavailable: this Tern has no setting legal.enabled: run the import again with --merge after an update that adds it',
      'oauth.github-clientId':
        "unavailable: Tern's setting oauth.github-clientId comes from the github plugin, which is not enabled: add github to TERN_PLUGINS, restart Tern and run the import again with --merge",
      's3.bucketName':
        "unavailable: Tern's setting s3.bucketName comes from the s3-storage plugin, which is not enabled: add s3-storage to TERN_PLUGINS, restart Tern and run the import again with --merge",
    })
    assert.deepEqual(
      (await allRows()).filter((r) => !before.includes(r)),
      ['smtp.host=mail.example.org']
    )
  })

  test("writes join the caller's transaction and are undone with it", async ({ assert }) => {
    const trx = await db.transaction()
    const result = await importPingvinConfig([row('general.appName', 'Team files')], {
      dryRun: false,
      trx,
    })
    assert.lengthOf(result.imported, 1)
    assert.equal(
      (await ConfigVariable.query({ client: trx }).where('key', 'general.appName').firstOrFail())
        .value,
      'Team files'
    )
    await trx.rollback()
    assert.isNull(await stored('general.appName'))

    // A dry run inside a transaction reads through it.
    const reading = await db.transaction()
    await ConfigVariable.query({ client: reading })
      .where('key', 'general.appName')
      .update({ value: 'Set in this transaction' })
    const dry = await importPingvinConfig([row('general.appName', 'Team files')], {
      dryRun: true,
      trx: reading,
    })
    assert.deepEqual(
      dry.skipped.map((item) => item.kind),
      ['collision']
    )
    await reading.rollback()
  })
})
