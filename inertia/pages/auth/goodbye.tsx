import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { useAppName } from '~/lib/config'
import { paths } from '~/lib/links'
import AuthCard from '~/components/auth/auth_card'
import LinkButton from '~/components/link_button'

/** `/goodbye`: the end of a deleted account (signed out, its shares gone). */
export default function Goodbye() {
  const t = useTranslate()
  const appName = useAppName()
  return (
    <>
      <Head title={t('auth.goodbye.title')} />
      <AuthCard
        title={t('auth.goodbye.heading')}
        description={t('auth.goodbye.description', { appName })}
      >
        <LinkButton type="primary" block size="large" href={paths.home}>
          {t('auth.goodbye.home')}
        </LinkButton>
      </AuthCard>
    </>
  )
}
