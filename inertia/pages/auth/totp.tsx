import { useCallback, useState } from 'react'
import { Alert } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Head, Link } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import AuthCard from '~/components/auth/auth_card'
import TotpCodeForm from '~/components/auth/totp_code_form'
import { authPaths, enterApp } from '~/components/auth/auth_paths'

/**
 * `/auth/totp/:loginToken`: the code step after a social login on an
 * account with two-factor authentication.
 */
export default function Totp(props: { loginToken: string; redirect: string }) {
  const t = useTranslate()
  const [expired, setExpired] = useState(false)
  const signedIn = useCallback(() => enterApp(props.redirect), [props.redirect])
  return (
    <>
      <Head title={t('auth.totp.title')} />
      <AuthCard
        title={t('auth.totp.title')}
        description={t('auth.totp.description')}
        footer={<Link href={authPaths.signIn}>{t('auth.totp.back')}</Link>}
      >
        {expired ? (
          <div aria-live="assertive">
            <Alert type="warning" showIcon message={t('auth.totp.expired')} />
          </div>
        ) : (
          <TotpCodeForm
            loginToken={props.loginToken}
            onSignedIn={signedIn}
            onExpired={() => setExpired(true)}
          />
        )}
      </AuthCard>
    </>
  )
}
