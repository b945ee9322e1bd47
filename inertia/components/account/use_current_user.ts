import { router, usePage } from '@inertiajs/react'
import type { PublicUser } from '#api/user'

/**
 * The signed-in user of the page (the account page is only rendered for
 * signed-in users) and a function reloading it after a change.
 */
export function useCurrentUser(): { user: PublicUser; reloadUser: () => void } {
  const { user } = usePage().props
  if (!user) throw new Error('The account page needs a signed-in user')
  return { user, reloadUser: () => router.reload({ only: ['user'] }) }
}
