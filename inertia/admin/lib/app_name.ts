/**
 * The app name the panel shows (title, sidebar): starts from the boot data
 * and follows `general.appName` when an admin saves it, without a reload.
 */
import { createContext, useContext } from 'react'

/** Setter of the shown app name; a no-op outside the panel's provider. */
export const SetAppNameContext = createContext<(name: string) => void>(() => undefined)

/** The setter of the shown app name. */
export function useSetAppName() {
  return useContext(SetAppNameContext)
}
