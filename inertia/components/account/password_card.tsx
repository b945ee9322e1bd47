import { useCallback } from 'react'
import { App, Button, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'
import SectionCard from '~/components/account/section_card'
import { useCurrentUser } from '~/components/account/use_current_user'

interface Values {
  oldPassword?: string
  password: string
}

/**
 * Password change (`PATCH /api/auth/password`): the current and a new
 * password; a user without a password yet (social login) only sets one.
 * Other sessions are signed out by the server.
 */
export default function PasswordCard() {
  const t = useTranslate()
  const rules = useValidationRules()
  const { notification } = App.useApp()
  const { user, reloadUser } = useCurrentUser()
  const [form] = Form.useForm<Values>()
  const hasPassword = user.hasPassword !== false
  const submit = useCallback(
    async (values: Values) => {
      await api.patch(apiPaths.password, hasPassword ? values : { password: values.password })
      form.resetFields()
      notification.success({ message: t('account.password.changed') })
      if (!hasPassword) reloadUser()
    },
    [form, hasPassword, notification, reloadUser, t]
  )
  const { loading, error, onFinish } = useApiForm(form, submit)

  return (
    <SectionCard
      id="password"
      title={t('account.password.title')}
      description={
        hasPassword ? t('account.password.description') : t('account.password.noPassword')
      }
    >
      <Form
        form={form}
        layout="vertical"
        name="changePassword"
        requiredMark={false}
        onFinish={onFinish}
      >
        <FormError error={error} />
        {hasPassword && (
          <Form.Item
            name="oldPassword"
            label={t('auth.fields.currentPassword')}
            rules={rules.currentPassword}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item name="password" label={t('auth.fields.newPassword')} rules={rules.password}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={loading}>
          {t('account.password.submit')}
        </Button>
      </Form>
    </SectionCard>
  )
}
