/** The shares resource of the admin panel (`/api/shares/all`, `DELETE /api/shares/:id`). */
export { ShareList, type AdminShare } from '~/admin/resources/shares/list'
