import { Button, Result } from 'antd'
import { useTranslate } from '~/lib/i18n'

/**
 * 403: a signed-in user without the admin right asked for the panel. The
 * pages are a full page load away.
 */
export function ForbiddenPage() {
  const t = useTranslate()
  return (
    <Result
      status="403"
      title="403"
      subTitle={<span data-testid="admin-forbidden">{t('admin.access.forbidden')}</span>}
      extra={
        <Button type="primary" href="/">
          {t('admin.access.backHome')}
        </Button>
      }
    />
  )
}
