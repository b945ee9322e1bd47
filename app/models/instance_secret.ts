import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/**
 * A secret generated once per instance and kept in the database (for example
 * the JWT signing key). Created through `InstanceSecretService`
 * (`#services/auth/instance_secret_service`), which is safe when several
 * processes start at once.
 */
export default class InstanceSecret extends BaseModel {
  static table = 'instance_secrets'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare name: string

  @column({ serializeAs: null })
  declare value: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
