import { Button, Result } from 'antd'
import { useGo } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'

/** A path of `/admin/*` the panel does not have. */
export function AdminNotFound() {
  const t = useTranslate()
  const go = useGo()
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('admin.notFound.message')}
      extra={
        <Button type="primary" onClick={() => go({ to: '/' })}>
          {t('admin.notFound.back')}
        </Button>
      }
    />
  )
}
