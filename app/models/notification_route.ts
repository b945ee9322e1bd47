import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { NotificationEventId } from '#extensions/notifications/events'

/**
 * A notification route (table `notification_routes`): event `event` goes to
 * channel `channel`, for the whole instance (`userId` null, chosen by an
 * admin) or for user `userId` (his own choice, rendered in `locale`).
 */
export default class NotificationRoute extends BaseModel {
  static table = 'notification_routes'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare userId: string | null

  @column()
  declare event: NotificationEventId

  @column()
  declare channel: string

  @column()
  declare locale: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
