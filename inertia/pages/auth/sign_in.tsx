import { useCallback, useEffect, useState } from 'react'
import { Button } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Head, Link, usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import AuthCard from '~/components/auth/auth_card'
import SignInForm from '~/components/auth/sign_in_form'
import TotpCodeForm from '~/components/auth/totp_code_form'
import SocialButtons from '~/components/auth/social_buttons'
import { authPaths, enterApp, withRedirect } from '~/components/auth/auth_paths'
import { AddressStep, useAddressStep } from '~/components/auth/address_step'

/**
 * Sign in: e-mail or username and password (hidden under
 * `oauth.disablePassword`), the social-login buttons, then a TOTP code when
 * the account has two-factor authentication on. "Forgot password?" only when
 * mails can be sent and the public address is confirmed. Afterwards:
 * `redirect`, the upload page by default; an admin first meets the address
 * step while the public address is not confirmed (`AddressStep`).
 */
export default function SignIn(props: { redirect: string; mailEnabled?: boolean }) {
  const t = useTranslate()
  const config = useConfig()
  const [loginToken, setLoginToken] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const { step, proceed } = useAddressStep(props.redirect)
  const signedIn = useCallback(() => void proceed(), [proceed])
  // A session refreshed in the background (expired access token) signs in without the form.
  const { user, appUrlConfirmed } = usePage().props
  useEffect(() => {
    if (user) void proceed(user.isAdmin)
  }, [user, proceed])
  const expired = useCallback(() => {
    setLoginToken(null)
    setNotice(t('auth.totp.expired'))
  }, [t])

  const signUpAllowed = config.boolean('share.allowRegistration', true)
  // oauth.disablePassword: only the social-login buttons are offered, unless LDAP sign-in is on (it needs the form).
  const passwordAllowed =
    !config.boolean('oauth.disablePassword', false) || config.boolean('ldap.enabled', false)
  const signUpHref = withRedirect(authPaths.signUp, props.redirect)

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
      <Head title={t('auth.signIn.title')} />
      {loginToken ? (
        <AuthCard title={t('auth.totp.title')} description={t('auth.totp.description')}>
          <TotpCodeForm loginToken={loginToken} onSignedIn={signedIn} onExpired={expired} />
          <Button type="link" block style={{ marginTop: 8 }} onClick={() => setLoginToken(null)}>
            {t('auth.totp.back')}
          </Button>
        </AuthCard>
      ) : (
        <AuthCard
          title={t('auth.signIn.heading')}
          footer={
            signUpAllowed && (
              <>
                {t('auth.signIn.noAccount')}{' '}
                <Link href={signUpHref}>{t('auth.signIn.signUpLink')}</Link>
              </>
            )
          }
        >
          {passwordAllowed && (
            <SignInForm
              onSignedIn={signedIn}
              onLoginToken={setLoginToken}
              notice={notice}
              offerReset={props.mailEnabled === true && appUrlConfirmed}
            />
          )}
          <SocialButtons divider={passwordAllowed} />
        </AuthCard>
      )}
    </>
  )
}
