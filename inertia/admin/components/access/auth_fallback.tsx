/**
 * What `<Authenticated>` shows when `check` did not let the user in:
 * - a visitor (401) goes to the pages' sign-in, which brings them back to the
 *   same admin path afterwards (full page load: sign-in is not in the SPA);
 * - a signed-in non-admin sees the 403 page;
 * - anything else (server unreachable) gets an error with a retry.
 */
import { useEffect } from 'react'
import { Button, Result, Spin } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { lastCheckResult } from '~/admin/providers/auth_provider'
import { ForbiddenPage } from '~/admin/components/access/forbidden_page'

/** See the module comment. */
export function AuthFallback() {
  const t = useTranslate()
  const check = lastCheckResult()
  const statusCode = (check?.error as { statusCode?: number } | undefined)?.statusCode
  const redirectTo = check?.redirectTo

  useEffect(() => {
    if (redirectTo) window.location.replace(redirectTo)
  }, [redirectTo])

  if (redirectTo) return <Spin fullscreen tip={t('admin.access.redirecting')} />
  if (statusCode === 403) return <ForbiddenPage />
  return (
    <Result
      status="error"
      title={t('admin.access.unavailable')}
      extra={<Button onClick={() => window.location.reload()}>{t('admin.access.retry')}</Button>}
    />
  )
}
