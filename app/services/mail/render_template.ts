/**
 * The placeholder renderer of the `email.*` templates.
 */

/**
 * Values of the placeholders of one template, by name (`{ url: 'https://...' }`).
 * `null` means "nothing to say": the lines holding that placeholder are left out.
 */
export type TemplateVariables = Readonly<Record<string, string | number | null>>

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/**
 * Replaces every `{name}` of `template` whose name is a key of `variables`
 * with its value; unknown placeholders and other braces stay as they are.
 * Values are inserted literally (a value containing `{x}` is not rendered
 * again).
 *
 * ```ts
 * renderTemplate('{appName} invite for {email} {unknown}', { appName: 'Tern', email: 'a@b.c' })
 * // 'Tern invite for a@b.c {unknown}'
 * ```
 */
export function renderTemplate(template: string, variables: TemplateVariables): string {
  return withoutEmptyLines(template, variables).replace(PLACEHOLDER, (match, name: string) =>
    Object.hasOwn(variables, name) && variables[name] !== null ? String(variables[name]) : match
  )
}

/**
 * `template` without the lines that hold a placeholder whose value is `null`
 * ("Description: {desc}" of a share without description). A left-out line
 * between two blank lines takes one of them along, so no gap doubles.
 */
function withoutEmptyLines(template: string, variables: TemplateVariables): string {
  const empty = Object.keys(variables).filter((name) => variables[name] === null)
  if (empty.length === 0) return template
  const lines = template.split('\n')
  const holdsEmpty = (line: string) =>
    [...line.matchAll(PLACEHOLDER)].some(
      (match) => empty.includes(match[1]) && Object.hasOwn(variables, match[1])
    )
  const kept: string[] = []
  for (let index = 0; index < lines.length; index++) {
    if (!holdsEmpty(lines[index])) {
      kept.push(lines[index])
      continue
    }
    const blankBefore = kept.length === 0 || kept[kept.length - 1].trim() === ''
    const next = lines[index + 1]
    if (blankBefore && next !== undefined && next.trim() === '') index++
  }
  return kept.join('\n')
}
