/** The configuration resource of the admin panel (`/api/configs/admin/*`). */
export { ConfigList, DEFAULT_CATEGORY } from '~/admin/resources/config/list'
