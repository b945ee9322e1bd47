import { useCallback } from 'react'
import { Button, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import type { TokensResponse } from '#api/auth'
import { api, apiPaths, isApiError } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'

interface Values {
  code: string
}

/**
 * The second sign-in step: a 6-digit code of the authenticator app for a
 * login token (`POST /api/auth/signIn/totp`). `onSignedIn` runs on success;
 * `onExpired` when the login token is unknown, used or expired (the user
 * must enter the password again).
 */
export default function TotpCodeForm(props: {
  loginToken: string
  onSignedIn: () => void
  onExpired?: () => void
}) {
  const t = useTranslate()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const { loginToken, onSignedIn, onExpired } = props

  const submit = useCallback(
    async (values: Values) => {
      try {
        await api.post<TokensResponse>(apiPaths.signInTotp, {
          totp: values.code.trim(),
          loginToken,
        })
      } catch (error) {
        if (onExpired && isApiError(error) && error.statusCode === 401) onExpired()
        throw error
      }
      onSignedIn()
    },
    [loginToken, onSignedIn, onExpired]
  )
  const { loading, error, onFinish } = useApiForm(form, submit, ['code'])

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} name="totp">
      <FormError error={error} />
      <Form.Item
        name="code"
        label={t('auth.totp.code')}
        extra={t('auth.totp.codeHelp')}
        rules={rules.totpCode}
        normalize={(value: string) => value.replace(/\s+/g, '')}
      >
        <Input
          autoFocus
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          size="large"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {t('auth.totp.submit')}
      </Button>
    </Form>
  )
}
