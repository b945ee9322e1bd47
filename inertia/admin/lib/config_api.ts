/**
 * The configuration routes of the admin API (`/api/configs/admin/*`) and their
 * answers, for the configuration pages and the landing page.
 */
import { adminHttp } from '~/admin/lib/http'
import { apiUrl } from '~/lib/api_url'
import type { AdminConfigVariable } from '#api/config'

/**
 * Paths of the configuration routes. The reads opt in to Tern's extensions
 * with `?ext=1` (Tern-only variables such as `general.checkForUpdates` and
 * `internal.setupFinished`); without it the server answers what a Pingvin 1.x
 * client may see.
 */
export const configPaths = {
  categories: apiUrl('configs.admin.categories'),
  category: (id: string) => `${apiUrl('configs.admin.show', { category: id })}?ext=1`,
  update: apiUrl('configs.admin.update'),
  version: apiUrl('configs.admin.version'),
  finishSetup: apiUrl('configs.admin.finishSetup'),
  testEmail: apiUrl('configs.admin.testEmail'),
  logo: apiUrl('configs.admin.logo.store'),
  publicConfig: `${apiUrl('configs.index')}?ext=1`,
} as const

/** `PATCH /api/configs/admin` with one change; `""` resets to the default. */
export function updateVariable(key: string, value: string | number | boolean) {
  return adminHttp.patch<AdminConfigVariable[]>(configPaths.update, [{ key, value }])
}

/** `POST /api/configs/admin/testEmail`. */
export function sendTestEmail(email: string) {
  return adminHttp.post(configPaths.testEmail, { email })
}

/** `POST /api/configs/admin/logo` with the file in the multipart field `file`. */
export function uploadLogo(file: Blob, name = 'logo.png') {
  const form = new FormData()
  form.append('file', file, name)
  return adminHttp.upload(configPaths.logo, form)
}

/** `POST /api/configs/admin/finishSetup`. */
export function finishSetup() {
  return adminHttp.post(configPaths.finishSetup)
}

/** Whether first-run setup is finished (`internal.setupFinished` of `GET /api/configs`). */
export async function isSetupFinished(): Promise<boolean> {
  const variables = await adminHttp.get<{ key: string; value: string }[]>(configPaths.publicConfig)
  const entry = variables.find((variable) => variable.key === 'internal.setupFinished')
  return entry ? entry.value === 'true' : true
}
