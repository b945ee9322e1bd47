/**
 * "Send a test e-mail" (SMTP): sends a mail with the saved SMTP settings to
 * an address (the admin's own by default) and shows the outcome: sent, or
 * the server's reason (SMTP disabled, the mail server's refusal).
 */
import { useState } from 'react'
import { Alert, App, Button, Card, Form, Input } from 'antd'
import { MailOutlined } from '@ant-design/icons'
import { useGetIdentity } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { useValidationRules } from '~/lib/validation'
import { sendTestEmail } from '~/admin/lib/config_api'
import { useAdminErrorText } from '~/admin/lib/errors'

/** See the module comment. */
export function TestEmailCard() {
  const t = useTranslate()
  const rules = useValidationRules()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const { data: identity } = useGetIdentity<{ email: string }>()
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const send = async ({ email }: { email: string }) => {
    setSending(true)
    setError(null)
    try {
      await sendTestEmail(email)
      notification.success({ message: t('admin.config.testEmail.sent', { email }) })
    } catch (cause) {
      setError(errorText(cause))
    } finally {
      setSending(false)
    }
  }

  return (
    <Card title={t('admin.config.testEmail.title')} size="small" style={{ maxWidth: 720, marginBottom: 24 }} data-testid="test-email-card">
      <p style={{ marginTop: 0 }}>{t('admin.config.testEmail.hint')}</p>
      <Form name="test-email" layout="inline" onFinish={send} initialValues={{ email: identity?.email ?? '' }} key={identity?.email ?? ''}>
        <Form.Item name="email" label={t('admin.config.testEmail.recipient')} rules={rules.email}>
          <Input type="email" style={{ width: 280 }} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" icon={<MailOutlined />} loading={sending}>
            {t('admin.config.testEmail.send')}
          </Button>
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon message={error} role="alert" style={{ marginTop: 16 }} /> : null}
    </Card>
  )
}
