/**
 * The title of a PDF preview. The preview shows the file from a `blob:` URL
 * (see use_file_preview), and a browser's PDF viewer titles a document with
 * its `/Title` metadata, else with the last part of its URL: for a blob, a
 * random id (or "about:blank"), also the name its Save button offers.
 *
 * So the preview's copy of a PDF gets the file name as `/Title`, through an
 * incremental update appended to the copy (a new Info object, a
 * cross-reference section for it and a trailer pointing back to the file's
 * own with `/Prev`): the file itself is untouched, downloads are the stored
 * bytes. The new Info replaces the document's own in the viewer (its author
 * and dates; a title such as "Microsoft Word - Document1" gives way to the
 * name the file was shared under). An encrypted PDF (whose strings would be
 * read as encrypted) or one whose end cannot be read is shown as it is.
 */

/** How far from the end the trailer is looked for. */
const TAIL = 4096

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return new TextDecoder('latin1').decode(
    bytes.subarray(Math.max(0, from), Math.min(bytes.length, to))
  )
}

/** `text` as a PDF hex string in UTF-16BE with its byte order mark. */
function utf16Hex(text: string): string {
  let hex = 'FEFF'
  for (let index = 0; index < text.length; index++)
    hex += text.charCodeAt(index).toString(16).padStart(4, '0').toUpperCase()
  return `<${hex}>`
}

/** The dictionary of the last trailer: a classic `trailer << ... >>`, or the one of the cross-reference stream at `offset`. */
function lastTrailer(bytes: Uint8Array, tail: string, offset: number): string | null {
  const classic = tail.lastIndexOf('trailer')
  if (classic !== -1) return tail.slice(classic, tail.lastIndexOf('startxref'))
  const stream = latin1(bytes, offset, offset + TAIL)
  const end = stream.indexOf('stream')
  return /^\s*\d+\s+\d+\s+obj\b/.test(stream) && end !== -1 ? stream.slice(0, end) : null
}

/** `bytes` of a PDF with `title` as its title (see the module comment), or `bytes` when that cannot be done. */
export function pdfWithTitle(
  bytes: Uint8Array<ArrayBuffer>,
  title: string
): Uint8Array<ArrayBuffer> {
  const tail = latin1(bytes, bytes.length - TAIL, bytes.length)
  const end = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)
  const previous = end ? Number(end[1]) : Number.NaN
  if (!(previous > 0 && previous < bytes.length)) return bytes
  const trailer = lastTrailer(bytes, tail, previous)
  if (!trailer || /\/Encrypt\b/.test(trailer)) return bytes
  const root = /\/Root\s+(\d+\s+\d+)\s+R/.exec(trailer)?.[1]
  const size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1])
  if (!root || !Number.isSafeInteger(size) || size <= 0) return bytes

  const info = `\n${size} 0 obj\n<</Title ${utf16Hex(title)}>>\nendobj\n`
  const infoOffset = bytes.length + 1
  const xrefOffset = bytes.length + info.length
  const update =
    info +
    'xref\n0 1\n0000000000 65535 f \n' +
    `${size} 1\n${String(infoOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<</Size ${size + 1}/Root ${root} R/Info ${size} 0 R/Prev ${previous}>>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`
  const titled = new Uint8Array(bytes.length + update.length)
  titled.set(bytes)
  titled.set(new TextEncoder().encode(update), bytes.length)
  return titled
}
