/**
 * A small, safe Markdown renderer for previews: headings, paragraphs,
 * fenced and indented code, block quotes, ordered and unordered (nested)
 * lists, rules, and the inline subset of `markdown_inline`. It builds React
 * elements only: raw HTML (`<script>`, `<img onerror>`, ...) is shown as
 * text, never parsed, and links are limited to http(s).
 */
import type { ReactNode } from 'react'
import { inline } from '~/components/share_view/markdown_inline'

const MAX_DEPTH = 8
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const QUOTE = /^ {0,3}> ?(.*)$/
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/
const INDENTED = /^(?: {4}|\t)(.*)$/

const isBlank = (line: string) => line.trim() === ''

/** Whether `line` starts a block other than a paragraph (it ends a paragraph). */
function startsBlock(line: string) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line)
}

/** Lines of one list item: its first line, then lines indented past the marker (blank lines inside kept). */
function itemLines(lines: string[], start: number, indent: number): { body: string[]; next: number } {
  const first = ITEM.exec(lines[start])!
  const body = [first[4]]
  let index = start + 1
  while (index < lines.length) {
    const line = lines[index]
    if (isBlank(line)) {
      const following = lines[index + 1]
      if (following === undefined || following.search(/\S/) < indent) break
      body.push('')
    } else if (line.search(/\S/) >= indent) {
      body.push(line.slice(indent))
    } else if (!startsBlock(line) && !isBlank(lines[index - 1])) {
      body.push(line.trim()) // lazy continuation of the item's paragraph
    } else break
    index++
  }
  return { body, next: index }
}

/** Renders block-level Markdown of `lines`. */
function blocks(lines: string[], depth: number, prefix: string): ReactNode[] {
  const out: ReactNode[] = []
  let index = 0
  const key = () => `${prefix}.${out.length}`
  while (index < lines.length) {
    const line = lines[index]
    if (isBlank(line)) {
      index++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      const code: string[] = []
      index++
      while (index < lines.length && !lines[index].trim().startsWith(fence[1])) code.push(lines[index++])
      index++
      out.push(<pre key={key()}><code>{code.join('\n')}</code></pre>)
      continue
    }
    const indented = INDENTED.exec(line)
    if (indented && depth === 0) {
      const code: string[] = []
      while (index < lines.length && (INDENTED.test(lines[index]) || isBlank(lines[index]))) {
        code.push(INDENTED.exec(lines[index])?.[1] ?? '')
        index++
      }
      out.push(<pre key={key()}><code>{code.join('\n').replace(/\n+$/, '')}</code></pre>)
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      const Tag = `h${heading[1].length}` as 'h1'
      out.push(<Tag key={key()}>{inline(heading[2] ?? '', 0, key())}</Tag>)
      index++
      continue
    }
    if (RULE.test(line)) {
      out.push(<hr key={key()} />)
      index++
      continue
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = []
      while (index < lines.length && !isBlank(lines[index]) && (QUOTE.test(lines[index]) || !startsBlock(lines[index]))) {
        quoted.push(QUOTE.exec(lines[index])?.[1] ?? lines[index])
        index++
      }
      const k = key()
      out.push(<blockquote key={k}>{depth < MAX_DEPTH ? blocks(quoted, depth + 1, k) : quoted.join('\n')}</blockquote>)
      continue
    }
    const item = ITEM.exec(line)
    if (item) {
      const ordered = /\d/.test(item[2])
      const items: string[][] = []
      while (index < lines.length) {
        const current = ITEM.exec(lines[index])
        if (!current || /\d/.test(current[2]) !== ordered) break
        const indent = current[1].length + current[2].length + Math.max(1, Math.min(current[3].length, 4))
        const { body, next } = itemLines(lines, index, indent)
        items.push(body)
        index = next
        while (index < lines.length && isBlank(lines[index]) && ITEM.test(lines[index + 1] ?? '')) index++
      }
      const k = key()
      const children = items.map((body, n) => <li key={n}>{listItem(body, depth, `${k}.${n}`)}</li>)
      out.push(ordered ? <ol key={k} start={Number.parseInt(item[2], 10)}>{children}</ol> : <ul key={k}>{children}</ul>)
      continue
    }
    const paragraph: string[] = []
    while (index < lines.length && !isBlank(lines[index]) && (paragraph.length === 0 || !startsBlock(lines[index]))) {
      paragraph.push(lines[index].replace(/^\s+/, ''))
      index++
    }
    out.push(<p key={key()}>{inline(paragraph.join('\n'), 0, key())}</p>)
  }
  return out
}

/** A list item: its inline text when it is one paragraph (tight list), else its blocks. */
function listItem(body: string[], depth: number, prefix: string): ReactNode {
  if (depth >= MAX_DEPTH) return body.join('\n')
  const simple = body.every((line) => !isBlank(line) && !startsBlock(line))
  if (simple) return inline(body.join('\n'), 0, prefix)
  return blocks(body, depth + 1, prefix)
}

/** Renders Markdown `source` as React elements (see the module comment for what is supported). */
export function renderMarkdown(source: string): ReactNode[] {
  return blocks(source.replace(/\r\n?/g, '\n').split('\n'), 0, 'md')
}

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  source: string
  className?: string
}

/** A Markdown document rendered safely (React elements, no raw HTML). */
export default function Markdown(props: MarkdownProps) {
  return <div className={props.className}>{renderMarkdown(props.source)}</div>
}
