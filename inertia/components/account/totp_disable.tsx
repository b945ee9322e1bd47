import { useCallback } from 'react'
import { App, Button, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'

interface Values {
  password: string
  code: string
}

/** Turning two-factor authentication off: current password and a code. */
export default function TotpDisable(props: { onDisabled: () => void }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const { notification } = App.useApp()
  const [form] = Form.useForm<Values>()
  const { onDisabled } = props
  const submit = useCallback(
    async (values: Values) => {
      await api.post(apiPaths.totpDisable, { password: values.password, code: values.code.trim() })
      notification.success({ message: t('account.totp.disabled') })
      form.resetFields()
      onDisabled()
    },
    [form, notification, t, onDisabled]
  )
  const { loading, error, onFinish } = useApiForm(form, submit, ['password', 'code'])

  return (
    <Form form={form} layout="vertical" name="totpDisable" requiredMark={false} onFinish={onFinish}>
      <FormError error={error} />
      <Form.Item
        name="password"
        label={t('auth.fields.currentPassword')}
        rules={rules.currentPassword}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('auth.totp.code')}
        rules={rules.totpCode}
        normalize={(value: string) => value.replace(/\s+/g, '')}
      >
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          style={{ maxWidth: 200 }}
        />
      </Form.Item>
      <Button danger htmlType="submit" loading={loading}>
        {t('account.totp.disable')}
      </Button>
    </Form>
  )
}
