import { useCallback } from 'react'
import { Button, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import type { SignUpResponse } from '#api/auth'
import type { PublicUser } from '#api/user'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'

interface Values {
  username: string
  email: string
  password: string
}

const FIELDS = ['username', 'email'] as const

/** The sign-up form: username, e-mail and password (`POST /api/auth/signUp`); `onSignedUp` gets the new user. */
export default function SignUpForm(props: { onSignedUp: (user: PublicUser) => void }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const { onSignedUp } = props

  const submit = useCallback(
    async (values: Values) => {
      const response = await api.post<SignUpResponse>(apiPaths.signUp, {
        username: values.username.trim(),
        email: values.email.trim(),
        password: values.password,
      })
      onSignedUp(response.user)
    },
    [onSignedUp]
  )
  const { loading, error, onFinish } = useApiForm(form, submit, FIELDS)

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} name="signUp">
      <FormError error={error} />
      <Form.Item name="username" label={t('auth.fields.username')} rules={rules.username}>
        <Input autoFocus autoComplete="username" size="large" />
      </Form.Item>
      <Form.Item name="email" label={t('auth.fields.email')} rules={rules.email}>
        <Input inputMode="email" autoComplete="email" size="large" />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} rules={rules.password}>
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {t('auth.signUp.submit')}
      </Button>
    </Form>
  )
}
