import { useCallback, useState } from 'react'
import { App, Button, Flex, Form, Input, Steps, Typography } from 'antd'
import { useTranslate } from '~/lib/i18n'
import type { TotpEnableResponse } from '#api/auth'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'

interface PasswordValues {
  password: string
}

interface CodeValues {
  code: string
}

/**
 * Turning two-factor authentication on, in two steps: the password gives the
 * secret (QR code, or the secret to type, click to copy); then a code of the
 * authenticator app confirms it.
 */
export default function TotpEnable(props: { onEnabled: () => void }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const { notification } = App.useApp()
  const [passwordForm] = Form.useForm<PasswordValues>()
  const [codeForm] = Form.useForm<CodeValues>()
  const [setup, setSetup] = useState<(TotpEnableResponse & { password: string }) | null>(null)
  const { onEnabled } = props

  const start = useCallback(async (values: PasswordValues) => {
    const response = await api.post<TotpEnableResponse>(apiPaths.totpEnable, {
      password: values.password,
    })
    setSetup({ ...response, password: values.password })
  }, [])
  const verify = useCallback(
    async (values: CodeValues) => {
      if (!setup) return
      await api.post(apiPaths.totpVerify, { code: values.code.trim(), password: setup.password })
      notification.success({ message: t('account.totp.enabled') })
      setSetup(null)
      passwordForm.resetFields()
      onEnabled()
    },
    [setup, notification, t, passwordForm, onEnabled]
  )
  const step1 = useApiForm(passwordForm, start, ['password'])
  const step2 = useApiForm(codeForm, verify, ['code'])

  return (
    <>
      <Steps
        size="small"
        current={setup ? 1 : 0}
        style={{ marginBottom: 24 }}
        items={[{ title: t('account.totp.step1') }, { title: t('account.totp.step2') }]}
      />
      {!setup ? (
        <Form
          form={passwordForm}
          layout="vertical"
          name="totpEnable"
          requiredMark={false}
          onFinish={step1.onFinish}
        >
          <FormError error={step1.error} />
          <Form.Item
            name="password"
            label={t('auth.fields.currentPassword')}
            rules={rules.currentPassword}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={step1.loading}>
            {t('account.totp.enable')}
          </Button>
        </Form>
      ) : (
        <>
          <Typography.Paragraph>{t('account.totp.scan')}</Typography.Paragraph>
          <Flex gap={24} wrap align="center" style={{ marginBottom: 16 }}>
            <img
              src={setup.qrCode}
              alt={t('account.totp.qrAlt')}
              width={180}
              height={180}
              style={{ background: '#fff', padding: 8, borderRadius: 8 }}
            />
            {/* Beside the QR code where both fit, under it on a phone (not squeezed to a few characters a line). */}
            <div style={{ minWidth: 0, flex: '1 1 220px' }}>
              <Typography.Text type="secondary">{t('account.totp.manual')}</Typography.Text>
              <Typography.Paragraph
                code
                copyable={{
                  text: setup.totpSecret,
                  tooltips: [t('account.copy'), t('account.copied')],
                }}
                style={{ fontSize: 16, wordBreak: 'break-all', marginTop: 4 }}
                data-testid="totp-secret"
              >
                {setup.totpSecret}
              </Typography.Paragraph>
            </div>
          </Flex>
          <Form
            form={codeForm}
            layout="vertical"
            name="totpVerify"
            requiredMark={false}
            onFinish={step2.onFinish}
          >
            <FormError error={step2.error} />
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
            <Flex gap={8}>
              <Button type="primary" htmlType="submit" loading={step2.loading}>
                {t('account.totp.verify')}
              </Button>
              <Button onClick={() => setSetup(null)}>{t('account.cancel')}</Button>
            </Flex>
          </Form>
        </>
      )}
    </>
  )
}
