/**
 * The logs of a real Tern process never carry a secret
 * from a request path or query, nor the bound values of a failed SQL
 * statement (a password hash, an e-mail address).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { startTernChild, type TernChild } from '#tests/helpers/tern_child'
import { cleanCommittedData } from '#tests/helpers/clean_database'

const TRIGGER = 'tern_redaction_probe'

/** Makes every insert into `users` fail with a database error, on the run's database. */
async function failUserInserts() {
  const dialect = db.connection().dialect.name
  if (dialect === 'mysql') {
    await db.rawQuery(
      `CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON users FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'provoked by the test'`
    )
  } else if (dialect === 'postgres') {
    await db.rawQuery(
      `CREATE FUNCTION ${TRIGGER}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'provoked by the test'; END $$ LANGUAGE plpgsql`
    )
    await db.rawQuery(
      `CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION ${TRIGGER}()`
    )
  } else {
    await db.rawQuery(
      `CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON users BEGIN SELECT RAISE(ABORT, 'provoked by the test'); END`
    )
  }
  return async () => {
    if (dialect === 'postgres') {
      await db.rawQuery(`DROP TRIGGER IF EXISTS ${TRIGGER} ON users`)
      await db.rawQuery(`DROP FUNCTION IF EXISTS ${TRIGGER}()`)
    } else {
      await db.rawQuery(`DROP TRIGGER IF EXISTS ${TRIGGER}`)
    }
  }
}

test.group('Faults | secrets stay out of the logs', (group) => {
  group.teardown(cleanCommittedData)
  let child: TernChild
  group.setup(async () => {
    // The child shares the run's (migrated) database and DATA_DIR.
    child = await startTernChild({})
    return () => child.stop()
  })

  test('token paths, OAuth codes and reset addresses are redacted in request and error logs', async ({
    assert,
  }) => {
    const secrets = [
      'RSTOKENSECRET0123456789',
      'LOGINTOKENSECRET987',
      'OAUTHCODESECRET',
      'OAUTHSTATESECRET',
      'victim@example.com',
    ]
    const calls: [string, string][] = [
      ['GET', `/api/reverseShares/${secrets[0]}`],
      ['GET', `/api/auth/totp/${secrets[1]}`],
      ['GET', `/api/oauth/callback/github?code=${secrets[2]}&state=${secrets[3]}`],
      ['POST', `/api/auth/resetPassword/${secrets[4]}`],
    ]
    for (const [method, path] of calls) {
      const response = await fetch(`${child.url}${path}`, { method, redirect: 'manual' })
      assert.isBelow(response.status, 500, `${method} ${path}`)
    }
    await waitForLog(child, (text) => text.includes('/api/auth/resetPassword/'))
    const text = child.tern.output()
    for (const secret of secrets) assert.notInclude(text, secret)
    assert.include(text, '/api/reverseShares/[redacted]')
    assert.include(text, '/api/auth/totp/[redacted]')
    assert.include(text, '/api/auth/resetPassword/[redacted]')
  }).timeout(30_000)

  test('a failed INSERT is logged with its error but without the bound hash and e-mail', async ({
    assert,
    cleanup,
  }) => {
    const admin = await createUser({ admin: true })
    cleanup(async () => {
      await User.query().where('id', admin.id).delete()
    })
    cleanup(await failUserInserts())
    const email = 'redaction-probe@example.com'
    const password = 'CorrectHorseBatteryStaple'
    // An administrator creating a user: the INSERT binds the password's hash.
    const response = await fetch(`${child.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cookie': await accessCookieFor(admin) },
      body: JSON.stringify({ username: 'redactionprobe', email, password }),
    })
    assert.equal(response.status, 500)
    await waitForLog(child, (text) => text.includes('provoked by the test'))
    const errors = child.logLines().filter((line) => (line.level as number) >= 50)
    const text = JSON.stringify(errors)
    assert.include(text, 'insert into', 'the statement (with placeholders) stays useful')
    assert.notInclude(text, email)
    assert.notInclude(text, 'redactionprobe')
    assert.notInclude(text, password)
    assert.notMatch(text, /\$scrypt|\$argon2|\$2[aby]\$/)
  }).timeout(30_000)
})

/** Waits until the child's output satisfies `done` (logs are written asynchronously). */
async function waitForLog(child: TernChild, done: (text: string) => boolean) {
  const deadline = Date.now() + 10_000
  while (!done(child.tern.output())) {
    if (Date.now() > deadline)
      throw new Error(`log line never came:\n${child.tern.output().slice(-4000)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
