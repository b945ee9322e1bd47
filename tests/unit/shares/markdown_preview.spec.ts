/**
 * The Markdown preview rendered the way SSR renders it (react-dom/server):
 * GitHub tables render, raw HTML stays text, unsafe links and images are
 * neutralised and the safe ones open in a new tab without an opener.
 */
import { test } from '@japa/runner'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import Markdown, { safeHref } from '../../../inertia/components/share_view/markdown_renderer.js'

const render = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }))

test.group('Shares | Markdown preview', () => {
  test('renders GitHub tables, lists, emphasis and code', ({ assert }) => {
    const html = render(
      [
        '# Title',
        '',
        '| Name | Size |',
        '| :--- | ---: |',
        '| a.txt | 1 B |',
        '',
        '- one',
        '- ~~two~~',
        '',
        '**b** *i* `x<y`',
      ].join('\n')
    )
    assert.include(html, '<h1>Title</h1>')
    assert.match(
      html,
      /<table[^>]*><thead><tr><th[^>]*>Name<\/th><th[^>]*>Size<\/th><\/tr><\/thead><tbody><tr><td[^>]*>a\.txt<\/td><td[^>]*>1 B<\/td>/
    )
    assert.match(html, /<th style="[^"]*text-align:right/)
    assert.include(html, '<li><del>two</del></li>')
    assert.include(html, '<strong>b</strong> <em>i</em> <code>x&lt;y</code>')
  })

  test('shows raw HTML as text and never as elements', ({ assert }) => {
    const html = render(
      [
        '<script>window.__pwned = 1</script>',
        '',
        '<img src="x" onerror="alert(1)">',
        '',
        'inline <b onclick="x()">b</b>',
      ].join('\n')
    )
    assert.notMatch(html, /<script|<img|<b |onerror="|onclick="/)
    assert.include(html, '&lt;script&gt;window.__pwned = 1&lt;/script&gt;')
    assert.include(html, '&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;')
  })

  test('keeps only absolute http(s) links, opened in a new tab without opener', ({ assert }) => {
    const html = render(
      [
        '[safe](https://example.com/docs) <https://example.org> www.example.net',
        '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(1)) [data](data:text/html,x) [rel](/admin) [mail](mailto:a@b.c)',
        '![pic](https://example.com/p.png) ![bad](javascript:alert(1))',
      ].join('\n')
    )
    const links = [...html.matchAll(/<a ([^>]*)>([^<]*)<\/a>/g)].map((match) => [
      match[2],
      match[1],
    ])
    const rel = 'target="_blank" rel="noopener noreferrer nofollow"'
    assert.deepEqual(links, [
      ['safe', `href="https://example.com/docs" ${rel}`],
      ['https://example.org', `href="https://example.org/" ${rel}`],
      ['www.example.net', `href="http://www.example.net/" ${rel}`],
      ['pic', `href="https://example.com/p.png" ${rel}`],
    ])
    assert.notInclude(html.toLowerCase(), 'javascript:')
    for (const text of ['js', 'JS', 'data', 'rel', 'mail', 'bad'])
      assert.include(html, `<span>${text}</span>`)
    assert.notInclude(html, '<img')
  })

  test('safeHref accepts absolute http(s) URLs only', ({ assert }) => {
    assert.equal(safeHref(' https://example.com/a b '), 'https://example.com/a%20b')
    for (const url of [
      'javascript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
      '/relative',
      '//host/x',
      'file:///etc/passwd',
      '',
    ]) {
      assert.isUndefined(safeHref(url), url)
    }
  })
})
