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
import { PHONE, useAdminStyles } from '~/admin/lib/styles'

/** See the module comment. On phones the recipient takes the card's width, its label above it. */
export function TestEmailCard() {
  useAdminStyles('test-email', () => ({
    '.tern-test-email-form .tern-test-email-recipient input.ant-input': { width: 280 },
    [PHONE]: {
      '.ant-form-inline.tern-test-email-form .tern-test-email-recipient': {
        flex: '1 1 100%',
        marginInlineEnd: 0,
        marginBottom: 12,
      },
      '.ant-form-inline.tern-test-email-form .tern-test-email-recipient .ant-form-item-row': {
        flexWrap: 'wrap',
      },
      '.ant-form-inline.tern-test-email-form .tern-test-email-recipient .ant-form-item-control': {
        flex: '1 1 100%',
        minWidth: 0,
      },
      '.tern-test-email-form .tern-test-email-recipient input.ant-input': { width: '100%' },
    },
  }))
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
    <Card
      title={t('admin.config.testEmail.title')}
      size="small"
      style={{ maxWidth: 720, marginBottom: 24 }}
      data-testid="test-email-card"
    >
      <p style={{ marginTop: 0 }}>{t('admin.config.testEmail.hint')}</p>
      <Form
        name="test-email"
        layout="inline"
        className="tern-test-email-form"
        onFinish={send}
        initialValues={{ email: identity?.email ?? '' }}
        key={identity?.email ?? ''}
      >
        <Form.Item
          name="email"
          label={t('admin.config.testEmail.recipient')}
          rules={rules.email}
          className="tern-test-email-recipient"
        >
          <Input type="email" />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" icon={<MailOutlined />} loading={sending}>
            {t('admin.config.testEmail.send')}
          </Button>
        </Form.Item>
      </Form>
      {error ? (
        <Alert type="error" showIcon message={error} role="alert" style={{ marginTop: 16 }} />
      ) : null}
    </Card>
  )
}
