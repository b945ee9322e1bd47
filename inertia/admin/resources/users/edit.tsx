/**
 * The edit-user dialog: username, e-mail, the admin privilege, and a new
 * password (left empty, the password is kept). The server refuses to take
 * the admin right from the last admin; its message is shown.
 */
import { Alert, Form, Input, Modal, Switch } from 'antd'
import { useModalForm } from '@refinedev/antd'
import type { HttpError } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { useValidationRules, validationRules, LIMITS } from '~/lib/validation'
import { updateBody, type AdminUser, type UserEditValues } from '~/admin/resources/users/types'
import { useFormErrors } from '~/admin/resources/users/use_form_errors'

/** `useModalForm` of the edit dialog, opened with `show(id)` from the list. */
export function useUserEditModal() {
  const t = useTranslate()
  return useModalForm<AdminUser, HttpError, UserEditValues>({
    action: 'edit',
    resource: 'users',
    redirect: false,
    errorNotification: false,
    successNotification: (data) => ({
      type: 'success',
      message: t('admin.users.updated', { username: (data?.data as AdminUser | undefined)?.username ?? '' }),
    }),
  })
}

/** The dialog itself. */
export function UserEdit(props: { modal: ReturnType<typeof useUserEditModal> }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const { modalProps, formProps, form } = props.modal
  const errors = useFormErrors(form)
  const username = (formProps.initialValues as AdminUser | undefined)?.username ?? ''

  const submit = async (values: UserEditValues) => {
    errors.clear()
    try {
      await formProps.onFinish?.(updateBody(values) as UserEditValues)
    } catch (error) {
      errors.show(error)
    }
  }

  return (
    <Modal
      {...modalProps}
      title={t('admin.users.edit.title', { username })}
      width={520}
      afterClose={errors.clear}
    >
      {errors.message ? <Alert type="error" showIcon message={errors.message} style={{ marginBottom: 16 }} role="alert" /> : null}
      <Form {...formProps} name="user-edit" layout="vertical" onFinish={submit}>
        <Form.Item name="username" label={t('admin.users.fields.username.label')} rules={rules.username}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('admin.users.fields.email.label')} rules={rules.email}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="isAdmin" label={t('admin.users.fields.isAdmin.label')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('admin.users.edit.newPassword')}
          extra={t('admin.users.edit.newPasswordHint')}
          rules={[validationRules(t).min(LIMITS.passwordMin)]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
