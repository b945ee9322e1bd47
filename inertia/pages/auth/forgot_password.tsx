import { useCallback, useState } from 'react'
import { Alert, Button, Form, Input } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Head, Link, usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import AuthCard from '~/components/auth/auth_card'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'
import { authPaths } from '~/components/auth/auth_paths'

interface Values {
  email: string
}

/**
 * Forgot password: asks for the e-mail address; the answer is always the
 * same neutral message (a link is sent if the address exists). With e-mail
 * off no link can be sent, nor before an admin confirmed the public address
 * (the server mails reset links only to it): the page says which and asks
 * for nothing.
 */
export default function ForgotPassword(props: { mailEnabled?: boolean }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const [sent, setSent] = useState(false)
  const submit = useCallback(async (values: Values) => {
    await api.post(apiPaths.requestPasswordReset(values.email.trim()))
    setSent(true)
  }, [])
  const { loading, error, onFinish } = useApiForm(form, submit)
  const { appUrlConfirmed } = usePage().props
  const unavailable =
    props.mailEnabled === false
      ? {
          title: t('auth.forgotPassword.unavailableTitle'),
          text: t('auth.forgotPassword.unavailable'),
        }
      : !appUrlConfirmed
        ? { title: t('public_address.reset.title'), text: t('public_address.reset.text') }
        : null

  return (
    <>
      <Head title={t('auth.forgotPassword.title')} />
      <AuthCard
        title={t('auth.forgotPassword.heading')}
        description={unavailable ? undefined : t('auth.forgotPassword.description')}
        footer={<Link href={authPaths.signIn}>{t('auth.forgotPassword.back')}</Link>}
      >
        {unavailable ? (
          <Alert
            type="warning"
            showIcon
            data-testid="reset-unavailable"
            message={unavailable.title}
            description={unavailable.text}
          />
        ) : (
          <>
            <div aria-live="polite">
              {sent && (
                <Alert
                  type="success"
                  showIcon
                  message={t('auth.forgotPassword.sent')}
                  style={{ marginBottom: 16 }}
                />
              )}
            </div>
            <Form
              form={form}
              layout="vertical"
              onFinish={onFinish}
              requiredMark={false}
              name="forgotPassword"
            >
              <FormError error={error} />
              <Form.Item name="email" label={t('auth.fields.email')} rules={rules.email}>
                <Input inputMode="email" autoFocus autoComplete="email" size="large" />
              </Form.Item>
              <Button type="primary" htmlType="submit" block size="large" loading={loading}>
                {t('auth.forgotPassword.submit')}
              </Button>
            </Form>
          </>
        )}
      </AuthCard>
    </>
  )
}
