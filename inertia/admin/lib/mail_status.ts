/**
 * Whether e-mail is on (`smtp.enabled` of `GET /api/configs`), for the admin
 * dialogs that only work with it (inviting a user by e-mail).
 */
import { useEffect, useState } from 'react'
import { adminHttp } from '~/admin/lib/http'
import { apiUrl } from '~/lib/api_url'

/** `GET /api/configs?ext=1` (public variables, read the same way as the setup notice). */
const PUBLIC_CONFIG = `${apiUrl('configs.index')}?ext=1`

/** True or false once known; null while loading or when the read failed (then nothing is refused up front). */
export function useMailEnabled(): boolean | null {
  const [enabled, setEnabled] = useState<boolean | null>(null)
  useEffect(() => {
    let active = true
    adminHttp
      .get<{ key: string; value: unknown }[]>(PUBLIC_CONFIG)
      .then((variables) => {
        const entry = variables.find((variable) => variable.key === 'smtp.enabled')
        if (active) setEnabled(entry ? entry.value === true || entry.value === 'true' : false)
      })
      .catch(() => undefined)
    return () => {
      active = false
    }
  }, [])
  return enabled
}
