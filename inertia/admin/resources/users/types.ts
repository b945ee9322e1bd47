import type { PublicUser } from '#api/user'

/** A user as the admin routes answer it (`/api/users`): the public user object. */
export type AdminUser = PublicUser

/** Fields of the create form: `password` only when `mode` is `password`. */
export interface UserCreateValues {
  username: string
  email: string
  isAdmin?: boolean
  mode: 'password' | 'invite'
  password?: string
}

/** Fields of the edit form: an empty password keeps the current one. */
export interface UserEditValues {
  username: string
  email: string
  isAdmin: boolean
  password?: string
}

/** The body of `POST /api/users`: without a password the user is invited by e-mail. */
export function createBody(values: UserCreateValues) {
  return {
    username: values.username,
    email: values.email,
    isAdmin: Boolean(values.isAdmin),
    ...(values.mode === 'password' && values.password ? { password: values.password } : {}),
  }
}

/** The body of `PATCH /api/users/:id`: the password only when one was typed. */
export function updateBody(values: UserEditValues) {
  return {
    username: values.username,
    email: values.email,
    isAdmin: Boolean(values.isAdmin),
    ...(values.password ? { password: values.password } : {}),
  }
}
