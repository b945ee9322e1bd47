import { Result } from 'antd'
import { ArrowLeftOutlined } from '@ant-design/icons'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import LinkButton from '~/components/link_button'

/** Props from `/error?error=<code>&redirect=<path>&params=<provider>` (checked by the server). */
export interface SocialLoginErrorProps {
  /** One of `SOCIAL_LOGIN_ERROR_CODES` (app/extensions/auth/errors.ts; `default` for anything else). */
  code: string
  /** Local path of the "Go back" button. */
  redirect: string
  /** The provider's display name ("OpenID Connect" for oidc), or "". */
  provider: string
}

/** The social-login error page: the code's message with the provider's name, and a way back. */
export default function SocialLoginError(props: SocialLoginErrorProps) {
  const t = useTranslate()
  const provider = props.provider || t('errors.social.unknownProvider')
  return (
    <>
      <Head title={t('errors.social.title')} />
      <Result
        status="warning"
        title={<h1 className="tern-result-title">{t('errors.social.heading')}</h1>}
        subTitle={
          <span data-error-code={props.code}>
            {t(`errors.social.codes.${props.code}`, { provider })}
          </span>
        }
        extra={
          <LinkButton type="primary" icon={<ArrowLeftOutlined />} href={props.redirect}>
            {t('errors.social.back')}
          </LinkButton>
        }
      />
    </>
  )
}
