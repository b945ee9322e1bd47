/** The shares resource of the admin panel (`/api/shares/all`, `DELETE /api/shares/:id`). */
export { ShareList } from '~/admin/resources/shares/list'
