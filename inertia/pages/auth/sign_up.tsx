import { useCallback } from 'react'
import { Head, Link } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import AuthCard from '~/components/auth/auth_card'
import SignUpForm from '~/components/auth/sign_up_form'
import SocialButtons from '~/components/auth/social_buttons'
import { authPaths, enterApp, withRedirect } from '~/components/auth/auth_paths'

/** Sign up: username, e-mail and password; signed in right away. */
export default function SignUp(props: { redirect: string }) {
  const t = useTranslate()
  const signedUp = useCallback(() => enterApp(props.redirect), [props.redirect])
  return (
    <>
      <Head title={t('auth.signUp.title')} />
      <AuthCard
        title={t('auth.signUp.heading')}
        footer={
          <>
            {t('auth.signUp.haveAccount')} <Link href={withRedirect(authPaths.signIn, props.redirect)}>{t('auth.signUp.signInLink')}</Link>
          </>
        }
      >
        <SignUpForm onSignedUp={signedUp} />
        <SocialButtons />
      </AuthCard>
    </>
  )
}
