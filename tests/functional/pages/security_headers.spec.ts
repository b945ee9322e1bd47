/**
 * HTML pages (Inertia pages, error pages and the /admin
 * shell) carry a Content-Security-Policy whose nonce is on every script and
 * style element of the page, frame-ancestors 'none', Referrer-Policy,
 * nosniff and Permissions-Policy. Downloads keep `sandbox`.
 */
import { test } from '@japa/runner'
import { api, cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'

/** The nonce of a `script-src` directive. */
function nonceOf(policy: string): string {
  const match = /script-src [^;]*'nonce-([^']+)'/.exec(policy)
  if (!match) throw new Error(`no script nonce in: ${policy}`)
  return match[1]
}

/** Every <script> and <style> start tag of the page, except JSON data blocks (never run). */
function executableTags(html: string): string[] {
  return [...html.matchAll(/<(script|style)\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => !/type="application\/json"/.test(tag))
}

test.group('Pages | security headers', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(() => cleanupShareTests())

  test('{$self} has the headers, and its nonce on every script and style')
    .with([
      '/',
      '/auth/signIn',
      '/auth/signUp',
      '/auth/resetPassword',
      '/no/such/page',
      '/admin',
      '/admin/users',
    ])
    .run(async ({ assert }, path) => {
      const response = await api('GET', path, { headers: { accept: 'text/html' } })
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/)
      const policy = response.headers.get('content-security-policy') ?? ''
      const nonce = nonceOf(policy)
      assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/, '128 random bits')
      assert.include(policy, `style-src 'self' 'nonce-${nonce}'`)
      assert.include(policy, "frame-ancestors 'none'")
      assert.include(policy, "object-src 'self' blob:")
      assert.include(policy, "img-src 'self' data: blob:")
      assert.include(policy, "connect-src 'self'")
      assert.notInclude(policy, "'unsafe-eval'")
      assert.notMatch(policy, /script-src[^;]*'unsafe-inline'/)
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
      assert.equal(response.headers.get('referrer-policy'), 'same-origin')
      assert.equal(response.headers.get('x-frame-options'), 'DENY')
      assert.include(response.headers.get('permissions-policy') ?? '', 'camera=()')

      const html = response.bytes.toString('utf8')
      const tags = executableTags(html)
      assert.isAbove(tags.length, 1)
      for (const tag of tags) assert.include(tag, `nonce="${nonce}"`, tag)
      assert.notInclude(html, 'tern-csp-nonce-', 'the SSR placeholder never reaches the browser')
      assert.match(
        html,
        new RegExp(`<meta property="csp-nonce" nonce="${nonce.replace(/[+/]/g, '\\$&')}"`)
      )
    })

  test('server-rendered antd styles are a same-origin stylesheet link carrying the nonce (they style the page before scripts run)', async ({
    assert,
  }) => {
    const response = await api('GET', '/', { headers: { accept: 'text/html' } })
    const policy = response.headers.get('content-security-policy') ?? ''
    const nonce = nonceOf(policy)
    assert.include(policy, "style-src 'self'")
    const links = [
      ...response.bytes
        .toString('utf8')
        .matchAll(/<link rel="stylesheet" href="(\/ssr-styles\/[0-9a-f]{64}\.css)"[^>]*>/g),
    ]
    assert.lengthOf(links, 1)
    assert.include(links[0][0], `nonce="${nonce}"`)
    const sheet = await api('GET', links[0][1])
    assert.equal(sheet.status, 200)
    assert.include(sheet.bytes.toString('utf8'), '.ant-')
  })

  test('every answer gets its own nonce', async ({ assert }) => {
    const policies = await Promise.all(
      [1, 2, 3].map(
        async () =>
          (await api('GET', '/', { headers: { accept: 'text/html' } })).headers.get(
            'content-security-policy'
          ) ?? ''
      )
    )
    assert.equal(new Set(policies.map(nonceOf)).size, 3)
  })

  test('a download keeps its sandbox policy; the API gets nosniff and frame-ancestors', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const share = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'page.html': '<script>alert(1)</script>' },
    })
    const download = await api(
      'GET',
      `/api/shares/${share.id}/files/${share.fileIds['page.html']}`,
      { cookie: share.cookie }
    )
    assert.equal(download.status, 200)
    assert.equal(download.headers.get('content-security-policy'), 'sandbox')
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff')

    const json = await api('GET', '/api/configs')
    assert.include(json.headers.get('content-security-policy') ?? '', "frame-ancestors 'none'")
    assert.equal(json.headers.get('x-content-type-options'), 'nosniff')
  })
})
