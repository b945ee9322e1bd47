/** The users resource of the admin panel (`/api/users`). */
export { UserList } from '~/admin/resources/users/list'
export { UserCreate, useUserCreateModal } from '~/admin/resources/users/create'
export { UserEdit, useUserEditModal } from '~/admin/resources/users/edit'
export type { AdminUser } from '~/admin/resources/users/types'
