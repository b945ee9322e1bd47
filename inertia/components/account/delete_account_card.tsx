import { useState } from 'react'
import { Button, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths, isApiError } from '~/lib/api'
import { useErrorText, useValidationRules } from '~/lib/validation'
import SectionCard from '~/components/account/section_card'
import FormModal, { FormFieldError } from '~/components/form_modal'
import { useCurrentUser } from '~/components/account/use_current_user'
import { authPaths } from '~/components/auth/auth_paths'

interface Values {
  password?: string
  username?: string
}

/**
 * Deleting the account (`DELETE /api/users/me`): a dialog asks for the
 * current password (a social-only account types its username instead); the
 * user's shares go with it. Then the goodbye page, signed out.
 */
export default function DeleteAccountCard() {
  const t = useTranslate()
  const errorText = useErrorText()
  const rules = useValidationRules()
  const { user } = useCurrentUser()
  const [form] = Form.useForm<Values>()
  const [open, setOpen] = useState(false)
  const hasPassword = user.hasPassword !== false
  const field = hasPassword ? 'password' : 'username'

  const submit = async (values: Values) => {
    const body = hasPassword ? { password: values.password } : { username: values.username?.trim() }
    try {
      await api.delete(apiPaths.me, body)
    } catch (error) {
      // A wrong password or username belongs to its field; anything else (last admin...) above the form.
      if (isApiError(error) && error.statusCode === 403)
        throw new FormFieldError(field, errorText(error))
      throw new Error(errorText(error))
    }
    window.location.assign(authPaths.goodbye)
  }

  return (
    <SectionCard
      id="delete"
      title={t('account.delete.title')}
      description={t('account.delete.description')}
      danger
    >
      <Button danger type="primary" onClick={() => setOpen(true)}>
        {t('account.delete.button')}
      </Button>
      <FormModal<Values>
        open={open}
        onCancel={() => setOpen(false)}
        title={t('account.delete.confirmTitle')}
        cancelText={t('account.cancel')}
        submitText={t('account.delete.confirm')}
        submitDanger
        name="deleteAccount"
        form={form}
        initialValues={{}}
        onSubmit={submit}
        notice={<p>{t('account.delete.confirmText')}</p>}
      >
        {hasPassword ? (
          <Form.Item
            name="password"
            label={t('auth.fields.currentPassword')}
            rules={rules.currentPassword}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        ) : (
          <Form.Item
            name="username"
            label={t('account.delete.typeUsername', { username: user.username })}
            rules={rules.required}
          >
            <Input autoComplete="off" spellCheck={false} />
          </Form.Item>
        )}
      </FormModal>
    </SectionCard>
  )
}
