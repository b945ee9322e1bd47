/**
 * Server renders are memoised per Inertia page object and antd's
 * styles are a linked, immutable stylesheet (inertia/ssr.tsx,
 * #services/pages/ssr_styles). These prove the cache is correct by
 * construction: visitors share a render but never a nonce, and any change of
 * settings or of a share's state shows on the very next request.
 */
import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { linkedStyles, page, pageObject } from '#tests/helpers/pages'

/** The nonce of the answer's `script-src` directive. */
function nonceOf(policy: string | null): string {
  const match = /script-src [^;]*'nonce-([^']+)'/.exec(policy ?? '')
  if (!match) throw new Error(`no script nonce in: ${policy}`)
  return match[1]
}

/** GET `path` as a browser (HTML), with optional cookie: the raw HTML and the CSP nonce. */
async function visit(path: string, cookie: string | null = null) {
  const response = await api('GET', path, { cookie, headers: { accept: 'text/html' } })
  return {
    status: response.status,
    raw: response.bytes.toString('utf8'),
    nonce: nonceOf(response.headers.get('content-security-policy')),
  }
}

/** The stylesheet links of a page. */
function styleLinks(raw: string): string[] {
  return [...raw.matchAll(/<link rel="stylesheet" href="(\/ssr-styles\/[^"]+)"/g)].map(
    (match) => match[1]
  )
}

async function completedShare() {
  const { cookie } = await shareUser()
  return createCompletedShare({ cookie, files: { 'notes.txt': 'hello' } })
}

test.group('Pages | server render cache', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('two visitors get the same page, each with its own nonce matching its CSP header', async ({
    assert,
  }) => {
    const share = await completedShare()
    const first = await visit(`/share/${share.id}`)
    const second = await visit(`/share/${share.id}`)
    assert.equal(first.status, 200)
    assert.notEqual(first.nonce, second.nonce)
    for (const answer of [first, second]) {
      assert.include(answer.raw, `<meta property="csp-nonce" nonce="${answer.nonce}"`)
      assert.notInclude(
        answer.raw,
        'tern-csp-nonce-',
        'the SSR placeholder never reaches the browser'
      )
      for (const [tag] of answer.raw.matchAll(/<(script|style|link rel="stylesheet")\b[^>]*>/g)) {
        if (!tag.includes('application/json')) assert.include(tag, `nonce="${answer.nonce}"`, tag)
      }
    }
    // Apart from the nonce, the two answers are the same page.
    assert.equal(first.raw.replaceAll(first.nonce, 'N'), second.raw.replaceAll(second.nonce, 'N'))
    assert.equal(pageObject(first.raw).props.shareId, share.id)
  })

  test('antd styles are one immutable stylesheet per style set; unknown names are 404', async ({
    assert,
  }) => {
    // A new share: a page object no earlier test rendered, so this request renders it.
    const share = await completedShare()
    const { raw } = await visit(`/share/${share.id}`)
    const [href] = styleLinks(raw)
    assert.match(href, /^\/ssr-styles\/[0-9a-f]{64}\.css$/)
    assert.notMatch(raw, /<style[^>]*data-rc-order/, 'no inline antd styles left in the HTML')
    const sheet = await api('GET', href)
    assert.equal(sheet.status, 200)
    assert.include(sheet.headers.get('content-type') ?? '', 'text/css')
    assert.equal(sheet.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    // antd in the browser reads this rule to know the styles are already there.
    assert.include(sheet.bytes.toString('utf8'), '.data-ant-cssinjs-cache-path{content:"')
    // Also in the database, where every worker of a cluster and every instance finds it.
    const hash = href.split('/').pop()!.replace('.css', '')
    const row = await db.from('ssr_stylesheets').where('hash', hash).select('css').first()
    assert.equal(row?.css, sheet.bytes.toString('utf8'))
    // A sheet another instance rendered (only in the database, never in this process) is served.
    const otherCss = '.rendered-elsewhere{color:red}'
    const otherHash = createHash('sha256').update(otherCss).digest('hex')
    await db.table('ssr_stylesheets').insert({
      hash: otherHash,
      css: otherCss,
      created_at: DateTime.now().toFormat('yyyy-MM-dd HH:mm:ss'),
    })
    const other = await api('GET', `/ssr-styles/${otherHash}.css`)
    assert.equal(other.status, 200)
    assert.equal(other.bytes.toString('utf8'), otherCss)
    assert.equal((await api('GET', `/ssr-styles/${'0'.repeat(64)}.css`)).status, 404)
    assert.equal((await api('GET', '/ssr-styles/..%2F..%2Fetc%2Fpasswd')).status, 404)
    assert.equal((await api('GET', '/ssr-styles/abc.css')).status, 404)
  })

  test('a change of the app name shows on the next request', async ({ assert }) => {
    assert.include((await page('/')).text, '<title data-inertia="">Home - Tern</title>')
    await setConfig('general.appName', 'Cache Buster')
    const after = await page('/')
    assert.include(after.text, '<title data-inertia="">Home - Cache Buster</title>')
    assert.include(after.text, '<span class="tern-brand-name">Cache Buster</span>')
  })

  test('a share that expires or is removed shows that state on the next request', async ({
    assert,
  }) => {
    const share = await completedShare()
    assert.deepEqual(pageObject((await visit(`/share/${share.id}`)).raw).props.initialState, {
      kind: 'tokenRequired',
    })
    const past = DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', share.id).update({ expiration: past })
    const expired = await page(`/share/${share.id}`)
    assert.match(expired.text, /<h1[^>]*>Share expired<\/h1>/)

    const other = await completedShare()
    assert.notMatch((await page(`/share/${other.id}`)).text, /Share removed/)
    await db.from('shares').where('id', other.id).update({ removed_reason: 'Gone for good' })
    const removed = await page(`/share/${other.id}`)
    assert.match(removed.text, /<h1[^>]*>Share removed<\/h1>/)
    assert.include(removed.text, 'Gone for good')
  })

  test('dark scheme pages link their own sheet, right-to-left pages a sheet with the rtl rules', async ({
    assert,
  }) => {
    const light = await visit('/')
    const dark = await visit('/', 'color_scheme=dark')
    const rtl = await visit('/', 'language=ar-EG')
    const [lightHref] = styleLinks(light.raw)
    const [darkHref] = styleLinks(dark.raw)
    assert.lengthOf(styleLinks(rtl.raw), 1)
    assert.notEqual(darkHref, lightHref)
    assert.include(dark.raw, 'data-theme="dark"')
    assert.match(await linkedStyles(dark.raw), /\.ant-layout-header[^}]*background:#141414/)
    assert.include(rtl.raw, '<html lang="ar-EG" dir="rtl"')
    // antd's right-to-left rules hang on `-rtl` classes, which the rtl render puts on its elements.
    assert.include(rtl.raw, 'ant-app-rtl')
    assert.match(await linkedStyles(rtl.raw), /-rtl[^{]*\{[^}]*direction:rtl/)
    // The same visitor state again: the same sheet (the render was reused or is identical).
    assert.deepEqual(styleLinks((await visit('/', 'color_scheme=dark')).raw), [darkHref])
  })
})
