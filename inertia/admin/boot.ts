/**
 * The boot data the server puts in the admin shell
 * (`resources/views/admin.edge`, built by `app/services/pages/admin_shell.ts`)
 * as `<script id="tern-admin-boot" type="application/json">`.
 */
import type { AdminBootData } from '#api/pages'

export type { AdminBootData }

const FALLBACK: AdminBootData = {
  language: 'en-US',
  colorScheme: 'system',
  appName: 'Tern',
  appUrl: null,
}

/** Reads the boot data of the page (defaults when the element is missing or broken). */
export function readBootData(doc: Document = document): AdminBootData {
  const text = doc.getElementById('tern-admin-boot')?.textContent
  if (!text) return FALLBACK
  try {
    return { ...FALLBACK, ...(JSON.parse(text) as Partial<AdminBootData>) }
  } catch {
    return FALLBACK
  }
}
