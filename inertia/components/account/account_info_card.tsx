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
  username: string
  email: string
}

const FIELDS = ['username', 'email'] as const

/** Account info: username and e-mail (`PATCH /api/users/me`). */
export default function AccountInfoCard() {
  const t = useTranslate()
  const rules = useValidationRules()
  const { notification } = App.useApp()
  const { user, reloadUser } = useCurrentUser()
  const [form] = Form.useForm<Values>()
  const submit = useCallback(
    async (values: Values) => {
      await api.patch(apiPaths.me, { username: values.username.trim(), email: values.email.trim() })
      notification.success({ message: t('account.info.saved') })
      reloadUser()
    },
    [notification, t, reloadUser]
  )
  const { loading, error, onFinish } = useApiForm(form, submit, FIELDS)

  return (
    <SectionCard id="info" title={t('account.info.title')}>
      <Form
        form={form}
        layout="vertical"
        name="accountInfo"
        requiredMark={false}
        initialValues={{ username: user.username, email: user.email }}
        onFinish={onFinish}
      >
        <FormError error={error} />
        <Form.Item name="username" label={t('auth.fields.username')} rules={rules.username}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="email" label={t('auth.fields.email')} rules={rules.email}>
          <Input inputMode="email" autoComplete="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={loading}>
          {t('account.info.save')}
        </Button>
      </Form>
    </SectionCard>
  )
}
