/** The failed notification deliveries of the admin panel (`/api/notifications/deliveries`). */
export { DeliveryList, type FailedDelivery } from '~/admin/resources/deliveries/list'
