/**
 * The confirmed public address as the panel knows it (`general.appUrl` as
 * stored, null while none is confirmed): starts from the boot data and
 * follows what an admin confirms, saves or resets here, without a reload.
 * The setup notice, the App URL field and the Social Login callback URLs
 * read it.
 */
import { createContext, useContext } from 'react'

/** The key of the public address. */
export const APP_URL_KEY = 'general.appUrl'

/** The confirmed address and its setter. */
export interface AppUrlState {
  appUrl: string | null
  setAppUrl: (appUrl: string | null) => void
}

/** See the module comment; outside the panel's provider: unconfirmed, and the setter does nothing. */
export const AppUrlContext = createContext<AppUrlState>({
  appUrl: null,
  setAppUrl: () => undefined,
})

/** See the module comment. */
export function useAppUrl(): AppUrlState {
  return useContext(AppUrlContext)
}

/** `url` as the server uses it: without trailing slashes. */
export function trimAppUrl(url: string): string {
  return url.trim().replace(/\/+$/, '')
}
