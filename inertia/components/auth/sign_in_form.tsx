import { useCallback } from 'react'
import { Button, Flex, Form, Input } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Link } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import type { SignInResponse } from '#api/auth'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'
import { authPaths } from '~/components/auth/auth_paths'

interface Values {
  identifier: string
  password: string
}

/**
 * The sign-in form: e-mail or username (an e-mail when it contains "@") and
 * password. Calls `onLoginToken` when the account needs a TOTP code,
 * `onSignedIn` when signed in.
 */
export default function SignInForm(props: {
  onSignedIn: () => void
  onLoginToken: (loginToken: string) => void
  notice?: string | null
  /** Offer "Forgot password?" (only when the reset link can be mailed). */
  offerReset?: boolean
}) {
  const t = useTranslate()
  const config = useConfig()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const { onSignedIn, onLoginToken } = props

  const submit = useCallback(
    async (values: Values) => {
      const identifier = values.identifier.trim()
      const body = identifier.includes('@')
        ? { email: identifier, password: values.password }
        : { username: identifier, password: values.password }
      const response = await api.post<SignInResponse>(apiPaths.signIn, body)
      if ('loginToken' in response && response.loginToken) onLoginToken(response.loginToken)
      else onSignedIn()
    },
    [onSignedIn, onLoginToken]
  )
  const { loading, error, onFinish } = useApiForm(form, submit)

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} name="signIn">
      <FormError error={error ?? props.notice ?? null} />
      <Form.Item name="identifier" label={t('auth.fields.identifier')} rules={rules.identifier}>
        <Input autoFocus autoComplete="username" size="large" />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} rules={rules.currentPassword}>
        <Input.Password autoComplete="current-password" size="large" />
      </Form.Item>
      {props.offerReset && !config.boolean('oauth.disablePassword', false) && (
        <Flex justify="flex-end" style={{ marginTop: -8, marginBottom: 16 }}>
          <Link href={authPaths.forgotPassword}>{t('auth.signIn.forgotPassword')}</Link>
        </Flex>
      )}
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {t('auth.signIn.submit')}
      </Button>
    </Form>
  )
}
