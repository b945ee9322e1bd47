/** The instance's notification routes of the admin panel (`/api/notifications/routes`). */
export {
  NotificationRouteList,
  NOTIFICATION_ROUTES_PATH,
} from '~/admin/resources/notification_routes/list'
