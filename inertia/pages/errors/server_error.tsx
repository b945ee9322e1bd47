import { Button, Result } from 'antd'
import { ArrowLeftOutlined } from '@ant-design/icons'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { paths } from '~/lib/links'

/** The generic error page: a message and a Back button. */
export default function ServerError(props: { status?: number }) {
  const t = useTranslate()
  const status = props.status ?? 500

  function goBack() {
    if (window.history.length > 1) window.history.back()
    else window.location.assign(paths.home)
  }

  return (
    <>
      <Head title={t('errors.generic.title')} />
      <Result
        status={status === 403 ? '403' : status >= 500 ? '500' : 'warning'}
        title={<h1 className="tern-result-title">{t('errors.generic.heading')}</h1>}
        subTitle={
          <>
            {t('errors.generic.description')}
            <br />
            {t('errors.generic.status', { status: String(status) })}
          </>
        }
        extra={
          <Button type="primary" icon={<ArrowLeftOutlined />} onClick={goBack}>
            {t('errors.generic.back')}
          </Button>
        }
      />
    </>
  )
}
