import { Result } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { paths } from '~/lib/links'
import LinkButton from '~/components/link_button'

/** The 404 page: "Oops this page doesn't exist." and a button home. */
export default function NotFound() {
  const t = useTranslate()
  return (
    <>
      <Head title={t('errors.notFound.title')} />
      <Result
        status="404"
        title={<h1 className="tern-result-title">{t('errors.notFound.heading')}</h1>}
        subTitle={t('errors.notFound.description')}
        extra={
          <LinkButton type="primary" href={paths.home}>
            {t('errors.notFound.home')}
          </LinkButton>
        }
      />
    </>
  )
}
