/**
 * The create-user dialog: username, e-mail, admin, and either a password set
 * here or an invitation by e-mail (the server sets a random password and
 * mails it with a link; it refuses when mail is not configured).
 */
import { Alert, Form, Input, Modal, Radio, Switch } from 'antd'
import { useModalForm } from '@refinedev/antd'
import type { HttpError } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { useValidationRules } from '~/lib/validation'
import { createBody, type AdminUser, type UserCreateValues } from '~/admin/resources/users/types'
import { useFormErrors } from '~/admin/resources/users/use_form_errors'

/** `useModalForm` of the create dialog, to open it from the list. */
export function useUserCreateModal() {
  const t = useTranslate()
  const modal = useModalForm<AdminUser, HttpError, UserCreateValues>({
    action: 'create',
    resource: 'users',
    redirect: false,
    errorNotification: false,
    successNotification: (data) => ({
      type: 'success',
      message: t('admin.users.created', { username: (data?.data as AdminUser | undefined)?.username ?? '' }),
    }),
  })
  return modal
}

/** The dialog itself. */
export function UserCreate(props: { modal: ReturnType<typeof useUserCreateModal> }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const { modalProps, formProps, form } = props.modal
  const errors = useFormErrors(form)
  const mode = Form.useWatch('mode', form) ?? 'password'

  const submit = async (values: UserCreateValues) => {
    errors.clear()
    try {
      await formProps.onFinish?.(createBody(values) as unknown as UserCreateValues)
    } catch (error) {
      errors.show(error)
    }
  }

  return (
    <Modal
      {...modalProps}
      title={t('admin.users.create.title')}
      width={520}
      okText={t('admin.users.create.submit')}
      afterClose={errors.clear}
    >
      {errors.message ? <Alert type="error" showIcon message={errors.message} style={{ marginBottom: 16 }} role="alert" /> : null}
      <Form {...formProps} name="user-create" layout="vertical" onFinish={submit} initialValues={{ mode: 'password', isAdmin: false }}>
        <Form.Item name="username" label={t('admin.users.fields.username.label')} rules={rules.username}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('admin.users.fields.email.label')} rules={rules.email}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="isAdmin" label={t('admin.users.fields.isAdmin.label')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="mode" label={t('admin.users.create.mode.label')}>
          <Radio.Group>
            <Radio value="password">{t('admin.users.create.mode.password')}</Radio>
            <Radio value="invite">{t('admin.users.create.mode.invite')}</Radio>
          </Radio.Group>
        </Form.Item>
        {mode === 'password' ? (
          <Form.Item name="password" label={t('admin.users.fields.password.label')} rules={rules.password}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        ) : (
          <Alert type="info" showIcon message={t('admin.users.create.inviteHint')} />
        )}
      </Form>
    </Modal>
  )
}
