import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/**
 * The stored value of one configuration variable. Only the value is kept in
 * the database; the definition comes from `configRegistry`
 * (`#extensions/config/registry`). Read values through `ConfigService`
 * (`#services/config/config_service`), not through this model.
 */
export default class ConfigVariable extends BaseModel {
  static table = 'config_variables'
  static selfAssignPrimaryKey = true

  /** `<category>.<name>`. */
  @column({ isPrimary: true })
  declare key: string

  /** The admin's value as a string; null when unset (the default applies). */
  @column()
  declare value: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
