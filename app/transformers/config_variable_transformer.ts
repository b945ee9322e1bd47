/**
 * Shapes configuration variables and categories for the HTTP API
 * (`GET /api/configs`, `GET|PATCH /api/configs/admin*`): the public item,
 * the admin item (obscured values masked) and the admin menu's category.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type { RegisteredConfigCategory, RegisteredConfigVariable } from '#extensions/config/types'
import {
  effectiveString,
  OBSCURED_MASK,
  type ConfigVariableResource,
  type StoredConfigValue,
} from '#services/config/stored_value'
import type { AdminConfigCategory, AdminConfigVariable, PublicConfigVariable } from '#api/config'

export type { AdminConfigCategory, AdminConfigVariable, PublicConfigVariable }

/**
 * Turns a variable and its stored row into an API item: `toObject()` is the
 * admin item, `toPublic()` the public one. Use the static helpers for plain objects.
 */
export default class ConfigVariableTransformer extends BaseTransformer<ConfigVariableResource> {
  /** The admin item: every attribute, obscured values masked (`OBSCURED_MASK` when set, `""` when not). */
  toObject(): AdminConfigVariable {
    const { variable, stored } = this.resource
    const mask = (text: string) => (variable.obscured && text !== '' ? OBSCURED_MASK : text)
    return {
      key: variable.key,
      name: variable.name,
      category: variable.category,
      type: variable.type,
      value: mask(effectiveString(variable, stored)),
      defaultValue: mask(variable.defaultValue),
      secret: !variable.public,
      obscured: variable.obscured,
      allowEdit: variable.allowEdit,
      order: variable.order,
      updatedAt: stored?.updatedAt?.toISO() ?? null,
      ...(variable.validation.min === undefined ? {} : { min: variable.validation.min }),
      ...(variable.validation.max === undefined ? {} : { max: variable.validation.max }),
    }
  }

  /** The public item: key, effective value as a string, type. */
  toPublic(): PublicConfigVariable {
    const { variable, stored } = this.resource
    return { key: variable.key, value: effectiveString(variable, stored), type: variable.type }
  }

  /** Plain admin item for a response body. */
  static toAdminJSON(
    variable: RegisteredConfigVariable,
    stored: StoredConfigValue | undefined
  ): AdminConfigVariable {
    return new ConfigVariableTransformer({ variable, stored }).toObject()
  }

  /** Plain public item for a response body. */
  static toPublicJSON(
    variable: RegisteredConfigVariable,
    stored: StoredConfigValue | undefined
  ): PublicConfigVariable {
    return new ConfigVariableTransformer({ variable, stored }).toPublic()
  }

  /** Plain admin items for a response body, in the given order. */
  static toAdminList(resources: readonly ConfigVariableResource[]): AdminConfigVariable[] {
    return resources.map(({ variable, stored }) => this.toAdminJSON(variable, stored))
  }

  /** Plain public items for a response body, in the given order. */
  static toPublicList(resources: readonly ConfigVariableResource[]): PublicConfigVariable[] {
    return resources.map(({ variable, stored }) => this.toPublicJSON(variable, stored))
  }

  /** Plain admin menu category for a response body. */
  static categoryJSON(category: RegisteredConfigCategory): AdminConfigCategory {
    return {
      category: category.id,
      name: category.displayName,
      order: category.order,
      source: category.source,
    }
  }
}
