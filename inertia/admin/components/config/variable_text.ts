/**
 * Names, descriptions and default values of configuration variables as the
 * panel shows them: from `admin.json` when the catalogue has them
 * (`admin.config.variables.<category>.<name>.label|description`), else
 * derived from the key (plugin variables), so every category is editable
 * even without translations.
 */
import type { TranslateFn } from '~/lib/i18n'
import type { Messages } from '~/lib/i18n'
import { formatBytes } from '~/lib/format'
import { parseTimespan } from '#api/expiration'
import type { AdminConfigVariable } from '#api/config'

/** `github-clientId` → "Github client id". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_.]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function messageKey(
  variable: Pick<AdminConfigVariable, 'category' | 'name'>,
  part: 'label' | 'description'
) {
  return `admin.config.variables.${variable.category}.${variable.name}.${part}`
}

/** The label of a variable. */
export function variableLabel(
  t: TranslateFn,
  messages: Messages,
  variable: AdminConfigVariable
): string {
  const key = messageKey(variable, 'label')
  return messages[key] !== undefined ? t(key) : humanize(variable.name)
}

/** The description of a variable, or null. */
export function variableDescription(
  t: TranslateFn,
  messages: Messages,
  variable: AdminConfigVariable
): string | null {
  const key = messageKey(variable, 'description')
  return messages[key] !== undefined ? t(key) : null
}

/** The label of a category: translated for core ones, the server's name otherwise. */
export function categoryLabel(
  t: TranslateFn,
  messages: Messages,
  category: { category: string; name: string }
): string {
  const key = `admin.config.categories.${category.category}`
  return messages[key] !== undefined ? t(key) : category.name
}

/** The default value as text ("On", "1 GB", "3 months", "(empty)"). */
export function defaultText(t: TranslateFn, locale: string, variable: AdminConfigVariable): string {
  const value = variable.defaultValue
  if (value === '') return t('admin.config.emptyValue')
  switch (variable.type) {
    case 'boolean':
      return value === 'true' ? t('admin.config.on') : t('admin.config.off')
    case 'filesize':
      return formatBytes(Number(value), locale)
    case 'timespan': {
      const parts = parseTimespan(value)
      return parts ? t(`admin.config.timespans.${parts.unit}s`, { count: parts.value }) : value
    }
    case 'text':
      return value.length > 80 ? `${value.slice(0, 80).split('\n')[0]}…` : value.split('\n')[0]
    default:
      return value
  }
}
