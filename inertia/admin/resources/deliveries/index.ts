/** The failed notification deliveries of the admin panel (`/api/notifications/deliveries`). */
export { DeliveryList } from '~/admin/resources/deliveries/list'
