/**
 * The PDF preview's title: the page's copy of a PDF gets
 * the file name as `/Title` through an incremental update; the viewer then
 * shows the name instead of the blob's random id.
 */
import { test } from '@japa/runner'
import { pdfWithTitle } from '../../../inertia/components/share_view/pdf_title.js'
import { onePagePdf } from '#tests/helpers/pdf'

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'))
const text = (data: Uint8Array) => Buffer.from(data).toString('latin1')

test.group('Share view | PDF title', () => {
  test("appends an Info object, its cross-reference and a trailer chained to the file's own", ({
    assert,
  }) => {
    const original = onePagePdf()
    const titled = text(pdfWithTitle(bytes(original), 'Rapport été.pdf'))
    assert.isTrue(titled.startsWith(original), "the file's own bytes are kept as they are")
    const update = titled.slice(original.length)
    const previous = /startxref\n(\d+)\n%%EOF\n$/.exec(original)![1]
    assert.include(update, `/Size 5/Root 1 0 R/Info 4 0 R/Prev ${previous}>>`)
    // The cross-reference entry points at the new object, and the new startxref at the new section.
    const entry = /\n4 1\n(\d{10}) 00000 n \n/.exec(update)!
    assert.isTrue(titled.slice(Number(entry[1])).startsWith('4 0 obj\n<</Title <FEFF'))
    const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(titled)![1])
    assert.isTrue(titled.slice(start).startsWith('xref\n0 1\n0000000000 65535 f \n4 1\n'))
    // UTF-16BE with a byte order mark: "é" is 00E9.
    const hex = [...'Rapport été.pdf']
      .map((char) => char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase())
      .join('')
    assert.include(update, `<</Title <FEFF${hex}>>>`)
  })

  test('reads the trailer of a cross-reference stream', ({ assert }) => {
    const head = '%PDF-1.5\n1 0 obj\n<</Type/Catalog>>\nendobj\n'
    const stream = `7 0 obj\n<</Type/XRef/Size 8/Root 1 0 R/W[1 2 1]/Length 0>>\nstream\n\nendstream\nendobj\n`
    const original = `${head}${stream}startxref\n${head.length}\n%%EOF\n`
    const update = text(pdfWithTitle(bytes(original), 'a.pdf')).slice(original.length)
    assert.include(update, `/Size 9/Root 1 0 R/Info 8 0 R/Prev ${head.length}>>`)
  })

  test('leaves encrypted and unreadable files as they are', ({ assert }) => {
    for (const original of [
      onePagePdf('/Encrypt 9 0 R'),
      'not a pdf at all',
      '%PDF-1.4\nstartxref\n999999\n%%EOF\n',
      onePagePdf().replace('/Root 1 0 R', ''),
    ]) {
      const input = bytes(original)
      assert.strictEqual(pdfWithTitle(input, 'x.pdf'), input, original.slice(0, 40))
    }
  })
})
