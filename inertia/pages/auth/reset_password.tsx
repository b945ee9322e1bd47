import { useCallback, useState } from 'react'
import { Alert, Button, Form, Input } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Head, Link } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import AuthCard from '~/components/auth/auth_card'
import FormError from '~/components/auth/form_error'
import LinkButton from '~/components/link_button'
import { useApiForm } from '~/components/auth/use_api_form'
import { authPaths } from '~/components/auth/auth_paths'

interface Values {
  password: string
}

/** Reset password (from the mailed link): sets a new password for the link's token. */
export default function ResetPassword(props: { token: string }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const [done, setDone] = useState(false)
  const submit = useCallback(
    async (values: Values) => {
      await api.post(apiPaths.resetPassword, { token: props.token, password: values.password })
      setDone(true)
    },
    [props.token]
  )
  const { loading, error, onFinish } = useApiForm(form, submit)

  return (
    <>
      <Head title={t('auth.resetPassword.title')} />
      <AuthCard
        title={t('auth.resetPassword.heading')}
        footer={
          done ? undefined : (
            <Link href={authPaths.forgotPassword}>{t('auth.resetPassword.requestNew')}</Link>
          )
        }
      >
        {done ? (
          <div aria-live="polite">
            <Alert
              type="success"
              showIcon
              message={t('auth.resetPassword.done')}
              style={{ marginBottom: 16 }}
            />
            <LinkButton type="primary" block size="large" href={authPaths.signIn}>
              {t('auth.resetPassword.signIn')}
            </LinkButton>
          </div>
        ) : (
          <Form
            form={form}
            layout="vertical"
            onFinish={onFinish}
            requiredMark={false}
            name="resetPassword"
          >
            <FormError error={error} />
            <Form.Item name="password" label={t('auth.fields.newPassword')} rules={rules.password}>
              <Input.Password autoFocus autoComplete="new-password" size="large" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={loading}>
              {t('auth.resetPassword.submit')}
            </Button>
          </Form>
        )}
      </AuthCard>
    </>
  )
}
