/**
 * Inline Markdown to React elements (never to HTML strings, so raw HTML in
 * the source stays text): code spans, strong, emphasis, strikethrough,
 * links and autolinks (http and https only), images shown as links, hard
 * line breaks and backslash escapes. Searches for closing delimiters look
 * at most `SEARCH_WINDOW` characters ahead, so hostile input stays linear.
 */
import type { ReactNode } from 'react'

const SEARCH_WINDOW = 1000
const MAX_DEPTH = 6
const PUNCTUATION = /[!-/:-@[-`{-~]/
const BARE_URL = /^https?:\/\/[^\s<>]*[^\s<>.,:;"')\]!?]/

/** The URL when it is absolute http(s), else null (javascript:, data:, relative ... are dropped). */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url.trim())
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
  } catch {
    return null
  }
}

function link(href: string | null, children: ReactNode, key: string): ReactNode {
  if (!href) return <span key={key}>{children}</span>
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  )
}

const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char)

/** Index of the closing `delimiter` of an opener ending at `from` (non-space before it), or -1. */
function findCloser(text: string, delimiter: string, from: number): number {
  const limit = Math.min(text.length, from + SEARCH_WINDOW)
  let index = text.indexOf(delimiter, from + 1)
  const single = delimiter.length === 1
  while (index !== -1 && index < limit) {
    const doubled = single && (text[index - 1] === delimiter || text[index + 1] === delimiter)
    if (!doubled && !isSpace(text[index - 1])) return index
    index = text.indexOf(delimiter, index + 1)
  }
  return -1
}

/** Index of the `]` closing a `[` at `open` (nested brackets allowed), or -1. */
function findBracket(text: string, open: number): number {
  let depth = 0
  const limit = Math.min(text.length, open + SEARCH_WINDOW)
  for (let index = open; index < limit; index++) {
    const char = text[index]
    if (char === '\\') index++
    else if (char === '[') depth++
    else if (char === ']' && --depth === 0) return index
  }
  return -1
}

/** `(url "title")` at `open`: the URL and the index after `)`, or null. */
function linkTarget(text: string, open: number): { url: string; end: number } | null {
  if (text[open] !== '(') return null
  const close = text.indexOf(')', open)
  if (close === -1 || close - open > SEARCH_WINDOW) return null
  const inside = text.slice(open + 1, close).trim()
  const url = inside.replace(/^<(.*)>$/, '$1').split(/\s+/)[0] ?? ''
  return { url, end: close + 1 }
}

type Match = { node: ReactNode; end: number } | null

/** Tries every inline construct starting at `at`. */
function matchAt(text: string, at: number, depth: number, key: string): Match {
  const char = text[at]
  const rest = text.slice(at, at + 3)
  if (char === '\\') {
    const next = text[at + 1]
    if (next === '\n') return { node: <br key={key} />, end: at + 2 }
    if (next !== undefined && PUNCTUATION.test(next)) return { node: next, end: at + 2 }
    return null
  }
  if (char === '`') {
    const run = /^`+/.exec(text.slice(at, at + 10))![0]
    const close = text.indexOf(run, at + run.length)
    if (close === -1 || close - at > SEARCH_WINDOW) return null
    const code = text.slice(at + run.length, close).replace(/\n/g, ' ')
    return { node: <code key={key}>{code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code}</code>, end: close + run.length }
  }
  if (char === '!' && text[at + 1] === '[') {
    const close = findBracket(text, at + 1)
    const target = close === -1 ? null : linkTarget(text, close + 1)
    if (!target) return null
    return { node: link(safeHref(target.url), text.slice(at + 2, close), key), end: target.end }
  }
  if (char === '[') {
    const close = findBracket(text, at)
    const target = close === -1 ? null : linkTarget(text, close + 1)
    if (!target) return null
    return { node: link(safeHref(target.url), inline(text.slice(at + 1, close), depth + 1, key), key), end: target.end }
  }
  if (char === '<') {
    const auto = /^<(https?:\/\/[^\s<>]+)>/.exec(text.slice(at, at + SEARCH_WINDOW))
    return auto ? { node: link(safeHref(auto[1]), auto[1], key), end: at + auto[0].length } : null
  }
  if (char === 'h' && (rest === 'htt') && (at === 0 || /[\s(]/.test(text[at - 1]))) {
    const bare = BARE_URL.exec(text.slice(at, at + SEARCH_WINDOW))
    return bare ? { node: link(safeHref(bare[0]), bare[0], key), end: at + bare[0].length } : null
  }
  for (const [delimiter, Tag] of [['**', 'strong'], ['__', 'strong'], ['~~', 'del'], ['*', 'em'], ['_', 'em']] as const) {
    if (!text.startsWith(delimiter, at) || isSpace(text[at + delimiter.length])) continue
    if (delimiter === '_' || delimiter === '__') {
      if (at > 0 && /\w/.test(text[at - 1])) continue
    }
    const close = findCloser(text, delimiter, at + delimiter.length - 1)
    if (close === -1 || close === at + delimiter.length) continue
    if ((delimiter === '_' || delimiter === '__') && /\w/.test(text[close + delimiter.length] ?? '')) continue
    const inner = inline(text.slice(at + delimiter.length, close), depth + 1, key)
    return { node: <Tag key={key}>{inner}</Tag>, end: close + delimiter.length }
  }
  return null
}

const SPECIAL = /[\\`![<h*_~]/

/**
 * Inline Markdown of `text` as React nodes (plain strings are escaped by
 * React; nothing is ever inserted as HTML).
 */
export function inline(text: string, depth = 0, keyPrefix = 'i'): ReactNode[] {
  if (depth > MAX_DEPTH) return [text]
  const nodes: ReactNode[] = []
  let plain = ''
  let index = 0
  while (index < text.length) {
    if (text[index] === '\n') {
      // Two trailing spaces make a hard break; other line ends stay soft (a space in HTML).
      if (plain.endsWith('  ')) {
        nodes.push(plain.replace(/ +$/, ''), <br key={`${keyPrefix}.${nodes.length}`} />)
        plain = ''
      } else plain += '\n'
      index++
      continue
    }
    const match = SPECIAL.test(text[index]) ? matchAt(text, index, depth, `${keyPrefix}.${nodes.length}`) : null
    if (match) {
      if (plain) nodes.push(plain)
      plain = ''
      nodes.push(match.node)
      index = match.end
    } else {
      plain += text[index]
      index++
    }
  }
  if (plain) nodes.push(plain)
  return nodes
}
