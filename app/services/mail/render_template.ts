/**
 * The placeholder renderer of the `email.*` templates.
 */

/** Values of the placeholders of one template, by name (`{ url: 'https://...' }`). */
export type TemplateVariables = Readonly<Record<string, string | number>>

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
  return template.replace(PLACEHOLDER, (match, name: string) =>
    Object.hasOwn(variables, name) ? String(variables[name]) : match
  )
}
