/**
 * A small ICU MessageFormat subset for the pages, compatible with the
 * server's ICU formatter for the messages Tern writes:
 *
 * - `{name}` is replaced by `values.name`;
 * - `{count, plural, =0 {none} one {# file} other {# files}}` picks a branch
 *   with `Intl.PluralRules` (exact `=n` first) and replaces `#` by the number;
 * - `{kind, select, admin {...} other {...}}` picks a branch by value;
 * - `''` is a literal apostrophe and `'{...}'` quotes braces, as in ICU.
 *
 * Unknown placeholders are left as written so a missing value is visible.
 */
export type MessageValues = Record<string, string | number | boolean | null | undefined>

/**
 * Formats `message` with `values` for `locale`.
 */
export function formatMessage(message: string, values: MessageValues = {}, locale = 'en-US'): string {
  if (!message.includes('{') && !message.includes("'")) return message
  return render(message, values, locale, undefined)
}

function render(message: string, values: MessageValues, locale: string, pound: string | undefined): string {
  let out = ''
  let i = 0
  while (i < message.length) {
    const ch = message[i]
    if (ch === "'") {
      if (message[i + 1] === "'") {
        out += "'"
        i += 2
        continue
      }
      const next = message[i + 1]
      if (next === '{' || next === '}' || (pound !== undefined && next === '#')) {
        const end = message.indexOf("'", i + 1)
        const stop = end === -1 ? message.length : end
        out += message.slice(i + 1, stop)
        i = stop + 1
        continue
      }
      out += ch
      i++
      continue
    }
    if (ch === '#' && pound !== undefined) {
      out += pound
      i++
      continue
    }
    if (ch === '{') {
      const end = matchingBrace(message, i)
      if (end === -1) {
        out += message.slice(i)
        break
      }
      out += placeholder(message.slice(i + 1, end), values, locale, pound)
      i = end + 1
      continue
    }
    out += ch
    i++
  }
  return out
}

function matchingBrace(message: string, start: number): number {
  let depth = 0
  for (let i = start; i < message.length; i++) {
    if (message[i] === '{') depth++
    else if (message[i] === '}') {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

function placeholder(body: string, values: MessageValues, locale: string, pound: string | undefined) {
  const firstComma = body.indexOf(',')
  const name = (firstComma === -1 ? body : body.slice(0, firstComma)).trim()
  const value = values[name]
  if (firstComma === -1) {
    if (value === undefined || value === null) return `{${body}}`
    return typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : String(value)
  }
  const rest = body.slice(firstComma + 1)
  const secondComma = rest.indexOf(',')
  const type = (secondComma === -1 ? rest : rest.slice(0, secondComma)).trim()
  const options = secondComma === -1 ? '' : rest.slice(secondComma + 1)
  const branches = parseBranches(options)

  if (type === 'plural' || type === 'selectordinal') {
    const count = Number(value ?? 0)
    const exact = branches.get(`=${count}`)
    const category = new Intl.PluralRules(locale, {
      type: type === 'plural' ? 'cardinal' : 'ordinal',
    }).select(count)
    const branch = exact ?? branches.get(category) ?? branches.get('other') ?? ''
    return render(branch, values, locale, new Intl.NumberFormat(locale).format(count))
  }
  if (type === 'select') {
    const branch = branches.get(String(value)) ?? branches.get('other') ?? ''
    return render(branch, values, locale, pound)
  }
  if (type === 'number' && typeof value === 'number') {
    return new Intl.NumberFormat(locale).format(value)
  }
  return value === undefined || value === null ? `{${body}}` : String(value)
}

function parseBranches(options: string) {
  const branches = new Map<string, string>()
  let i = 0
  while (i < options.length) {
    while (i < options.length && /\s/.test(options[i])) i++
    const open = options.indexOf('{', i)
    if (open === -1) break
    const selector = options.slice(i, open).trim()
    const close = matchingBrace(options, open)
    if (close === -1) break
    branches.set(selector, options.slice(open + 1, close))
    i = close + 1
  }
  return branches
}
