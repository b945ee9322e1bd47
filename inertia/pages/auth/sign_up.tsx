import { useCallback } from 'react'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Head, Link } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import AuthCard from '~/components/auth/auth_card'
import SignUpForm from '~/components/auth/sign_up_form'
import SocialButtons from '~/components/auth/social_buttons'
import { authPaths, enterApp, withRedirect } from '~/components/auth/auth_paths'
import { AddressStep, useAddressStep } from '~/components/auth/address_step'
import type { PublicUser } from '~/types/page_props'

/**
 * Sign up: username, e-mail and password; signed in right away. The first
 * account is the admin: it meets the address step first while the public
 * address is not confirmed (`AddressStep`).
 */
export default function SignUp(props: { redirect: string }) {
  const t = useTranslate()
  const { step, proceed } = useAddressStep(props.redirect)
  const signedUp = useCallback((user: PublicUser) => void proceed(user.isAdmin), [proceed])
  if (step) {
    return (
      <>
        <Head title={t('public_address.step.title')} />
        <AddressStep onDone={() => enterApp(props.redirect)} />
      </>
    )
  }
  return (
    <>
      <Head title={t('auth.signUp.title')} />
      <AuthCard
        title={t('auth.signUp.heading')}
        footer={
          <>
            {t('auth.signUp.haveAccount')}{' '}
            <Link href={withRedirect(authPaths.signIn, props.redirect)}>
              {t('auth.signUp.signInLink')}
            </Link>
          </>
        }
      >
        <SignUpForm onSignedUp={signedUp} />
        <SocialButtons />
      </AuthCard>
    </>
  )
}
