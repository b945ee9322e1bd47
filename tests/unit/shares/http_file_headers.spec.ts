import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import {
  byteWindow,
  contentDisposition,
  etagMatches,
  parseRange,
} from '#services/files/http_file_headers'
import { safeEntryName, uniqueEntryNames } from '#services/files/zip_stream'

test.group('Shares | download headers', () => {
  test('Content-Disposition quotes ASCII names and adds filename* for others', ({ assert }) => {
    assert.equal(contentDisposition('a b.txt'), 'attachment; filename="a b.txt"')
    assert.equal(
      contentDisposition('say "hi".txt', 'inline'),
      'inline; filename="say \\"hi\\".txt"'
    )
    assert.equal(
      contentDisposition('日本.txt'),
      `attachment; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`
    )
    assert.equal(contentDisposition("it's (1).txt"), `attachment; filename="it's (1).txt"`)
    assert.equal(
      contentDisposition('evil\r\nSet-Cookie: x.txt'),
      'attachment; filename="evil__Set-Cookie: x.txt"'
    )
    assert.equal(
      contentDisposition('photos/2024/a.jpg'),
      'attachment; filename="photos/2024/a.jpg"',
      'folders kept'
    )
    assert.equal(contentDisposition('a\\b.txt'), 'attachment; filename="a\\\\b.txt"')
  })

  test('parses single byte ranges', ({ assert }) => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { kind: 'range', start: 0, end: 9 })
    assert.deepEqual(parseRange('bytes=90-', 100), { kind: 'range', start: 90, end: 99 })
    assert.deepEqual(parseRange('bytes=90-500', 100), { kind: 'range', start: 90, end: 99 })
    assert.deepEqual(parseRange('bytes=-5', 100), { kind: 'range', start: 95, end: 99 })
    assert.deepEqual(parseRange('bytes=-500', 100), { kind: 'range', start: 0, end: 99 })
    assert.deepEqual(parseRange('bytes=100-', 100), { kind: 'unsatisfiable' })
    assert.deepEqual(parseRange('bytes=-0', 100), { kind: 'unsatisfiable' })
    assert.deepEqual(parseRange('bytes=0-0', 0), { kind: 'unsatisfiable' })
    assert.deepEqual(
      parseRange('bytes=-5', 0),
      { kind: 'unsatisfiable' },
      'any range of an empty file'
    )
    assert.deepEqual(parseRange('BYTES=0-9', 100), { kind: 'range', start: 0, end: 9 })
    for (const ignored of [
      undefined,
      '',
      'items=0-1',
      'bytes=5-1',
      'bytes=0-1,3-4',
      'bytes=0-1,',
      'bytes=x-1',
      'bytes=-',
    ]) {
      assert.deepEqual(parseRange(ignored, 100), { kind: 'none' }, String(ignored))
    }
  })

  test('a first position past every safe integer is unsatisfiable, huge ends and suffixes are clamped', ({
    assert,
  }) => {
    assert.deepEqual(parseRange('bytes=18446744073709551616-', 100), { kind: 'unsatisfiable' })
    assert.deepEqual(parseRange(`bytes=${'9'.repeat(400)}-`, 100), { kind: 'unsatisfiable' })
    assert.deepEqual(parseRange('bytes=9007199254740993-9007199254740999', 100), {
      kind: 'unsatisfiable',
    })
    assert.deepEqual(parseRange('bytes=10-18446744073709551616', 100), {
      kind: 'range',
      start: 10,
      end: 99,
    })
    assert.deepEqual(parseRange('bytes=-18446744073709551616', 100), {
      kind: 'range',
      start: 0,
      end: 99,
    })
    assert.deepEqual(
      parseRange('bytes=18446744073709551616-5', 100),
      { kind: 'none' },
      'end before start'
    )
  })

  test('matches If-None-Match lists, weak tags and *', ({ assert }) => {
    assert.isTrue(etagMatches('"a", "b"', '"b"'))
    assert.isTrue(etagMatches('W/"b"', '"b"'))
    assert.isTrue(etagMatches('*', '"b"'))
    assert.isFalse(etagMatches('"a"', '"b"'))
    assert.isFalse(etagMatches(undefined, '"b"'))
  })

  test('byteWindow passes exactly the window and stops reading', async ({ assert }) => {
    const source = Readable.from([Buffer.from('0123'), Buffer.from('4567'), Buffer.from('89ab')])
    const chunks: Buffer[] = []
    for await (const chunk of byteWindow(source, 3, 8)) chunks.push(chunk)
    assert.equal(Buffer.concat(chunks).toString(), '345678')
    assert.isTrue(source.destroyed)
  })

  test('zip entry names never leave the extraction folder', ({ assert }) => {
    assert.equal(safeEntryName('../../etc/passwd'), 'etc/passwd')
    assert.equal(safeEntryName('/abs\\win\\..\\x.txt'), 'abs/win/x.txt')
    assert.equal(safeEntryName('dir/./a.txt'), 'dir/a.txt')
    assert.equal(safeEntryName('..'), 'file')
  })

  test('zip entry names are made unique', ({ assert }) => {
    assert.deepEqual(uniqueEntryNames(['a.txt', 'a.txt', 'b', 'b', 'a.txt']), [
      'a.txt',
      'a (1).txt',
      'b',
      'b (1)',
      'a (2).txt',
    ])
  })
})
