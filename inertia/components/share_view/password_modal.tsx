import { useRef, useState } from 'react'
import { Button, Form, Input, Modal, Typography, type InputRef } from 'antd'
import { useTranslate } from '~/lib/i18n'
import type { PasswordError } from '~/components/share_view/use_share_access'

/** Props of {@link PasswordModal}. */
export interface PasswordModalProps {
  open: boolean
  /** Posts the password; resolves to the error to show, or null when accepted. */
  onSubmit(password: string): Promise<PasswordError | null>
  /** The visitor closed the modal (Escape, close button). */
  onClose(): void
}

/**
 * "Password required": asks for the share's password (Enter submits) and
 * shows "Invalid password" under the field when it is wrong. The field has
 * the focus when the modal opens; antd gives it back to the opener on close.
 */
export default function PasswordModal(props: PasswordModalProps) {
  const t = useTranslate()
  const [form] = Form.useForm<{ password: string }>()
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const input = useRef<InputRef>(null)

  const messageOf = (failure: PasswordError) => {
    if (failure.kind === 'wrong') return t('share.password.wrong')
    if (failure.kind === 'tooMany' && failure.retryAfter) {
      return t('share.password.tooManyRetry', { seconds: failure.retryAfter })
    }
    if (failure.kind === 'tooMany') return t('share.password.tooMany')
    return t('share.error.unknown')
  }

  const finish = async ({ password }: { password: string }) => {
    setLoading(true)
    setError(null)
    try {
      const failure = await props.onSubmit(password)
      if (failure) {
        setError(messageOf(failure))
        input.current?.focus({ cursor: 'all' })
      }
    } finally {
      setLoading(false)
    }
  }

  return (
    <Modal
      open={props.open}
      title={t('share.password.title')}
      onCancel={props.onClose}
      afterOpenChange={(open) => open && input.current?.focus()}
      maskClosable={false}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('share.password.description')}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        name="sharePassword"
        onFinish={finish}
      >
        <Form.Item
          name="password"
          label={t('share.password.label')}
          rules={[{ required: true, message: t('share.password.empty') }]}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Input.Password
            ref={input}
            autoFocus
            autoComplete="off"
            onChange={() => error && setError(null)}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          {t('share.password.submit')}
        </Button>
      </Form>
    </Modal>
  )
}
