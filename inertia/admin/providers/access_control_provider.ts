/**
 * Refine's access control: the panel is for admins only, and the API decides
 * (admin routes answer 403 to anyone else). `can` allows every action to the
 * admin the auth provider saw and refuses it otherwise, so buttons are never
 * offered to someone the server would refuse. Rules that depend on data
 * (the last admin cannot be deleted) stay the server's: the panel shows its
 * message.
 */
import type { AccessControlProvider } from '@refinedev/core'
import { currentAdmin } from '~/admin/providers/auth_provider'

/** Creates the access control provider. */
export function createAccessControlProvider(): AccessControlProvider {
  return {
    async can() {
      return currentAdmin()?.isAdmin ? { can: true } : { can: false, reason: 'Forbidden' }
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  }
}
