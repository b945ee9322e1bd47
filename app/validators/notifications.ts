/**
 * Body of `PUT /api/notifications/routes` and `PUT /api/user/notifications`:
 * `{routes: [{event, channel}]}` (at most 200 routes). Whether an event or a
 * channel exists is checked by NotificationRoutesService (400 naming it).
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'

/** See the module comment. */
export const notificationRoutesValidator = vine.create({
  routes: vine
    .array(
      vine.object({
        event: vine.string().trim().minLength(1).maxLength(64),
        channel: vine.string().trim().minLength(1).maxLength(64),
      })
    )
    .maxLength(200),
})

notificationRoutesValidator.messagesProvider = new SimpleMessagesProvider({
  'required': '{{ field }} is required',
  'array': '{{ field }} must be an array of {event, channel}',
  'object': 'Each route must be an object {event, channel}',
  'string': '{{ field }} must be a string',
  'minLength': '{{ field }} must not be empty',
  'maxLength': '{{ field }} is too long',
  'array.maxLength': 'At most {{ max }} routes can be saved',
})
