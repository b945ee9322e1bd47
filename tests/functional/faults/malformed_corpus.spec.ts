/**
 * The malformed-input corpus (tests/helpers/malformed_corpus.ts): every JSON field, query value and
 * path parameter of the API routes mutated with hostile values, every JSON
 * route sent broken bodies, downloads and uploads sent hostile headers, as
 * a visitor, a user and an admin. Every answer must be < 500 (a 4xx with a
 * JSON message, or a 2xx only where the route is read-only or neutral), and
 * nothing may be stored: every table (but attempt counters and job locks)
 * and every file under DATA_DIR is the same after the run.
 *
 * In the first test, baselines are valid requests that a late check still
 * refuses (a taken user name, a share id in use, a wrong password, an
 * expiration over `share.maxExpiration`), so a hostile value that passes
 * validation goes as deep as it can and still must not store anything. In
 * the second, baselines are accepted requests: a hostile value is either
 * refused with nothing stored, or stored as sent, never a 500 (MySQL's
 * INTEGER and DATETIME limits are reached there).
 */
import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import {
  HOSTILE_BODIES,
  HOSTILE_SEGMENTS,
  runCorpus,
  runWithTableChecks,
  type CorpusResult,
} from '#tests/helpers/malformed_corpus'
import { buildCorpus, fieldMutations, type CorpusRoute } from '#tests/helpers/malformed_routes'
import { snapshotState } from '#tests/helpers/state_snapshot'
import {
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  setConfig,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import { createReverseShare } from '#tests/helpers/reverse_shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'

test.group('Faults | malformed-input corpus', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(() => cleanupShareTests())

  test('no malformed request answers 5xx or stores anything', async ({ assert }) => {
    const user = await shareUser()
    const admin = await shareUser({ admin: true })
    const other = await shareUser()
    const victim = await shareUser()
    const open = await createCompletedShare({
      cookie: user.cookie,
      files: { 'a.txt': 'hello corpus' },
    })
    const locked = await createCompletedShare({
      cookie: user.cookie,
      files: { 'b.txt': 'b' },
      security: { password: 'secret' },
    })
    const draft = newShareId()
    await createShare(user.cookie, { id: draft, recipients: [] })
    const reverse = await createReverseShare(user.cookie)
    // Token routes use the password share: a forged cookie there is a 403, never a counted direct-link view.
    const token = (await shareToken(locked.id, 'secret')).cookie!
    // Over this maximum, baselines with "never" are refused after validation.
    await setConfig('share.maxExpiration', '1 days')

    const s = JSON.stringify
    const taken = { username: s(other.user.username), email: s(other.user.email) }
    const routes: CorpusRoute[] = [
      {
        method: 'POST',
        path: '/api/auth/signUp',
        role: 'anon',
        body: { ...taken, password: s('password123') },
      },
      {
        method: 'POST',
        path: '/api/auth/signIn',
        role: 'anon',
        checksPassword: true,
        body: { email: s(victim.user.email), username: s('x'), password: s('wrong-password') },
      },
      {
        method: 'POST',
        path: '/api/auth/signIn/totp',
        role: 'anon',
        body: { totp: s('123456'), loginToken: s('unknown') },
      },
      { method: 'POST', path: '/api/auth/signOut', role: 'anon', body: {}, mayAccept: true },
      { method: 'POST', path: '/api/auth/token', role: 'anon', body: {} },
      {
        method: 'POST',
        path: '/api/auth/resetPassword/:email',
        role: 'anon',
        params: { email: 'nobody%40example.com' },
        mayAccept: true,
      },
      {
        method: 'POST',
        path: '/api/auth/resetPassword',
        role: 'anon',
        body: { token: s('unknown-token'), password: s('password123') },
      },
      {
        method: 'PATCH',
        path: '/api/auth/password',
        role: 'user',
        checksPassword: true,
        body: { oldPassword: s('wrong-password'), password: s('password456') },
      },
      {
        method: 'POST',
        path: '/api/auth/totp/enable',
        role: 'user',
        checksPassword: true,
        body: { password: s('wrong-password') },
      },
      {
        method: 'POST',
        path: '/api/auth/totp/verify',
        role: 'user',
        checksPassword: true,
        body: { code: s('123456'), password: s('wrong-password') },
      },
      {
        method: 'POST',
        path: '/api/auth/totp/disable',
        role: 'user',
        checksPassword: true,
        body: { code: s('123456'), password: s('wrong-password') },
      },
      {
        method: 'GET',
        path: '/api/oauth/auth/:provider',
        role: 'anon',
        params: { provider: 'oidc' },
      },
      {
        method: 'GET',
        path: '/api/oauth/callback/:provider',
        role: 'anon',
        params: { provider: 'oidc' },
        query: { code: 'c', state: 's', error: 'e' },
        mayAccept: true,
      },
      {
        method: 'POST',
        path: '/api/oauth/unlink/:provider',
        role: 'user',
        params: { provider: 'github' },
      },
      { method: 'GET', path: '/api/users/me', role: 'user', mayAccept: true },
      { method: 'PATCH', path: '/api/users/me', role: 'user', body: taken, emptyBodyIsValid: true },
      {
        method: 'POST',
        path: '/api/users',
        role: 'admin',
        body: { ...taken, password: s('password123'), isAdmin: 'false' },
      },
      {
        method: 'PATCH',
        path: '/api/users/:id',
        role: 'admin',
        params: { id: victim.user.id },
        body: { ...taken, password: s('password123'), isAdmin: 'false' },
        emptyBodyIsValid: true,
      },
      { method: 'DELETE', path: '/api/users/:id', role: 'admin', params: { id: 'missing' } },
      {
        method: 'POST',
        path: '/api/users/me/apiTokens',
        role: 'user',
        body: { name: s('corpus'), expiresAt: s('2001-01-01T00:00:00Z') },
        skip: { expiresAt: ['missing'] },
      },
      {
        method: 'DELETE',
        path: '/api/users/me/apiTokens/:id',
        role: 'user',
        params: { id: 'missing' },
      },
      {
        method: 'GET',
        path: '/api/configs/admin/:category',
        role: 'admin',
        params: { category: 'share' },
        mayAccept: true,
      },
      {
        method: 'PATCH',
        path: '/api/configs/admin',
        role: 'admin',
        arrayBody: true,
        body: { key: s('share.zipCompressionLevel'), value: '42' },
        skip: { value: ['minus zero', 'blank'] },
      },
      {
        method: 'POST',
        path: '/api/configs/admin/testEmail',
        role: 'admin',
        body: { email: s('someone@example.com') },
      },
      { method: 'POST', path: '/api/configs/admin/logo', role: 'admin', body: {} },
      {
        method: 'GET',
        path: '/api/shares/isShareIdAvailable/:id',
        role: 'anon',
        params: { id: 'abc' },
        mayAccept: true,
      },
      {
        method: 'POST',
        path: '/api/shares',
        role: 'user',
        body: {
          id: s(open.id),
          name: s('corpus'),
          description: s('d'),
          expiration: s('never'),
          recipients: '[]',
          security: { password: s('secret'), maxViews: '3' },
        },
      },
      {
        method: 'GET',
        path: '/api/shares/:id',
        role: 'user',
        params: { id: locked.id },
        cookies: token,
        mayAccept: true,
      },
      {
        method: 'PATCH',
        path: '/api/shares/:id',
        role: 'user',
        params: { id: draft },
        body: {
          name: s('renamed'),
          description: s('d'),
          expiration: s('never'),
          security: { password: s('secret'), maxViews: '3' },
        },
        emptyBodyIsValid: true,
        skip: { expiration: ['missing'] },
      },
      { method: 'DELETE', path: '/api/shares/:id', role: 'user', params: { id: 'missing-share' } },
      {
        method: 'POST',
        path: '/api/shares/:id/complete',
        role: 'user',
        params: { id: 'missing-share' },
      },
      {
        method: 'DELETE',
        path: '/api/shares/:id/complete',
        role: 'user',
        params: { id: draft },
        emptyBodyIsValid: true,
      },
      {
        method: 'POST',
        path: '/api/shares/:id/token',
        role: 'anon',
        params: { id: locked.id },
        checksPassword: true,
        body: { password: s('wrong') },
      },
      {
        method: 'GET',
        path: '/api/shares/:id/from-owner',
        role: 'user',
        params: { id: draft },
        mayAccept: true,
      },
      {
        method: 'GET',
        path: '/api/shares/:id/files/zip',
        role: 'anon',
        params: { id: locked.id },
        cookies: token,
        mayAccept: true,
      },
      // Routes without inputs still meet forged cookies and bearer tokens.
      ...(['/api/configs', '/api/health', '/api/oauth/available'] as const).map((path) => ({
        method: 'GET',
        path,
        role: 'anon' as const,
        mayAccept: true,
      })),
      ...(
        [
          '/api/shares',
          '/api/reverseShares',
          '/api/users/me/apiTokens',
          '/api/oauth/status',
        ] as const
      ).map((path) => ({ method: 'GET', path, role: 'user' as const, mayAccept: true })),
      ...(
        ['/api/shares/all', '/api/users', '/api/admin/plugins', '/api/configs/admin'] as const
      ).map((path) => ({ method: 'GET', path, role: 'admin' as const, mayAccept: true })),
      {
        method: 'GET',
        path: '/api/shares/:id/metaData',
        role: 'anon',
        params: { id: locked.id },
        cookies: token,
        mayAccept: true,
      },
      {
        method: 'POST',
        path: '/api/shares/:id/files',
        role: 'user',
        params: { id: draft },
        raw: 'x',
        // chunkIndex 1 of a new file is refused (expected 0): valid names still store nothing.
        query: { name: 'a.txt', chunkIndex: '1', totalChunks: '2' },
      },
      {
        method: 'GET',
        path: '/api/shares/:id/files/:fileId',
        role: 'anon',
        params: { id: locked.id, fileId: locked.fileIds['b.txt'] },
        cookies: token,
        mayAccept: true,
      },
      {
        method: 'DELETE',
        path: '/api/shares/:id/files/:fileId',
        role: 'user',
        params: { id: draft, fileId: 'missing' },
      },
      {
        method: 'POST',
        path: '/api/reverseShares',
        role: 'user',
        body: {
          shareExpiration: s('never'),
          maxShareSize: s('1000'),
          maxUseCount: '1',
          sendEmailNotification: 'false',
          simplified: 'false',
          publicAccess: 'true',
        },
      },
      {
        method: 'GET',
        path: '/api/reverseShares/:token',
        role: 'anon',
        params: { token: reverse.token },
        mayAccept: true,
      },
      { method: 'DELETE', path: '/api/reverseShares/:id', role: 'user', params: { id: 'missing' } },
    ]
    const cookies = { anon: null, user: user.cookie, admin: admin.cookie }
    const requests = buildCorpus(routes, cookies, {
      downloadPath: `/api/shares/${locked.id}/files/${locked.fileIds['b.txt']}`,
      token,
      draft,
    })

    const before = await snapshotState()
    const started = Date.now()
    const results = await runCorpus(requests, 8)
    const seconds = (Date.now() - started) / 1000
    const after = await snapshotState()

    const serverErrors = results.filter((result) => result.status >= 500)
    const problems = results.filter((result) => result.problem !== null)
    const changedTables = Object.keys({ ...before.tables, ...after.tables }).filter(
      (name) => before.tables[name]?.hash !== after.tables[name]?.hash
    )
    const newFiles = after.files.filter((file) => !before.files.includes(file))
    const sideEffects = changedTables.length + newFiles.length
    const byCaller = (name: string | null) =>
      requests.filter((entry) => entry.cookies === name).length
    const statuses: Record<string, number> = {}
    for (const result of results)
      statuses[`${String(result.status)[0]}xx`] =
        (statuses[`${String(result.status)[0]}xx`] ?? 0) + 1
    console.log(
      `malformed corpus: callers anonymous ${byCaller(null)}, user ${byCaller(user.cookie)}, admin ${byCaller(admin.cookie)}, ` +
        `other (token or forged cookies) ${requests.length - byCaller(null) - byCaller(user.cookie) - byCaller(admin.cookie)}; ` +
        `answers ${JSON.stringify(statuses)}`
    )
    console.log(
      `malformed corpus: ${results.length} requests in ${seconds.toFixed(1)} s, ${serverErrors.length} answered 5xx, ` +
        `${problems.length} unacceptable answers, ${sideEffects} side effects ` +
        `(${HOSTILE_SEGMENTS.length} hostile segments, ${HOSTILE_BODIES.length} hostile bodies)`
    )
    for (const result of problems.slice(0, Number(process.env.CORPUS_SHOW ?? 30))) {
      console.log(
        `  ${result.request.method} ${result.request.path.slice(0, 120)} [${result.request.label}] -> ${result.problem}`
      )
    }
    for (const name of changedTables) {
      const [was, is] = [before.tables[name]?.lines ?? [], after.tables[name]?.lines ?? []]
      console.log(
        `  ${name}: -`,
        was.filter((line) => !is.includes(line)),
        '+',
        is.filter((line) => !was.includes(line))
      )
    }
    if (newFiles.length) console.log('  new files:', newFiles)
    assert.isAtLeast(results.length, 1000)
    assert.lengthOf(serverErrors, 0, 'no request answers 5xx')
    assert.lengthOf(
      problems,
      0,
      'every answer is a 4xx with a message, or a 2xx of a read-only route'
    )
    assert.deepEqual(changedTables, [], 'no table changed')
    assert.deepEqual(newFiles, [], 'no file stored')
  }).timeout(120_000)

  test('hostile fields of accepted requests are refused without a trace or stored, never a 5xx', async ({
    assert,
  }) => {
    const user = await shareUser()
    const admin = await shareUser({ admin: true })
    const victim = await shareUser()
    const draft = newShareId()
    await createShare(user.cookie, { id: draft, recipients: [] })
    const s = JSON.stringify
    const fresh = (prefix: string) => () => s(`${prefix}${randomBytes(5).toString('hex')}`)
    const freshEmail = () => s(`c${randomBytes(5).toString('hex')}@example.com`)
    const security = { password: s('secret'), maxViews: '3' }
    const lanes: { tables: string[]; routes: [CorpusRoute, string][] }[] = [
      {
        tables: ['shares', 'share_securities', 'share_recipients'],
        routes: [
          [
            {
              method: 'POST',
              path: '/api/shares',
              role: 'user',
              body: {
                id: fresh('c-'),
                name: s('corpus'),
                description: s('d'),
                expiration: s('1-hour'),
                recipients: '[]',
                security,
              },
            },
            user.cookie,
          ],
          [
            {
              method: 'PATCH',
              path: '/api/shares/:id',
              role: 'user',
              params: { id: draft },
              body: { name: s('renamed'), description: s('d'), expiration: s('1-hour'), security },
            },
            user.cookie,
          ],
        ],
      },
      {
        tables: ['reverse_shares'],
        routes: [
          [
            {
              method: 'POST',
              path: '/api/reverseShares',
              role: 'user',
              body: {
                shareExpiration: s('1-day'),
                maxShareSize: s('1000'),
                maxUseCount: '1',
                sendEmailNotification: 'false',
                simplified: 'false',
                publicAccess: 'true',
              },
            },
            user.cookie,
          ],
        ],
      },
      {
        tables: ['api_tokens'],
        routes: [
          [
            {
              method: 'POST',
              path: '/api/users/me/apiTokens',
              role: 'user',
              body: { name: s('corpus'), expiresAt: s('2999-01-01T00:00:00Z') },
            },
            user.cookie,
          ],
        ],
      },
      {
        tables: ['users'],
        routes: [
          [
            {
              method: 'POST',
              path: '/api/auth/signUp',
              role: 'anon',
              checksPassword: true,
              body: { username: fresh('s_'), email: freshEmail, password: s('password123') },
            },
            '',
          ],
          [
            {
              method: 'POST',
              path: '/api/users',
              role: 'admin',
              checksPassword: true,
              body: {
                username: fresh('u_'),
                email: freshEmail,
                password: s('password123'),
                isAdmin: 'false',
              },
            },
            admin.cookie,
          ],
          [
            {
              method: 'PATCH',
              path: '/api/users/:id',
              role: 'admin',
              params: { id: victim.user.id },
              checksPassword: true,
              body: {
                username: fresh('v_'),
                email: freshEmail,
                password: s('password123'),
                isAdmin: 'false',
              },
            },
            admin.cookie,
          ],
        ],
      },
    ]
    const started = Date.now()
    const results: CorpusResult[] = (
      await Promise.all(
        lanes.map(({ tables, routes }) => {
          const requests = routes.flatMap(([route, cookie]) =>
            fieldMutations({ ...route, mayAccept: true }, cookie || null)
          )
          return runWithTableChecks(requests, tables)
        })
      )
    ).flat()
    const serverErrors = results.filter((result) => result.status >= 500)
    const problems = results.filter((result) => result.problem !== null)
    const accepted = results.filter((result) => result.status < 300).length
    console.log(
      `malformed fields on accepted requests: ${results.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
        `${accepted} stored as sent, ${results.length - accepted} refused, ${serverErrors.length} answered 5xx, ${problems.length} problems`
    )
    for (const result of problems.slice(0, 30)) {
      console.log(
        `  ${result.request.method} ${result.request.path} [${result.request.label}] -> ${result.problem}`
      )
    }
    assert.isAtLeast(results.length, 800)
    assert.lengthOf(serverErrors, 0, 'no request answers 5xx')
    assert.lengthOf(problems, 0, 'refused requests store nothing, answers carry a message')
  }).timeout(120_000)
})
