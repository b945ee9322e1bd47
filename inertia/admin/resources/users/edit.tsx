/**
 * The edit-user dialog: username, e-mail, the admin privilege, and a new
 * password (left empty, the password is kept). The server refuses to take
 * the admin right from the last admin; its message is shown.
 */
import { Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { validationRules, LIMITS } from '~/lib/validation'
import { updateBody, type AdminUser, type UserEditValues } from '~/admin/resources/users/types'
import {
  UserFormModal,
  UserIdentityFields,
  useUserModalForm,
} from '~/admin/resources/users/user_form_modal'

/** `useModalForm` of the edit dialog, opened with `show(id)` from the list. */
export function useUserEditModal() {
  return useUserModalForm<UserEditValues>('edit', 'admin.users.updated')
}

/** The dialog itself. */
export function UserEdit(props: { modal: ReturnType<typeof useUserEditModal> }) {
  const t = useTranslate()
  const username = (props.modal.formProps.initialValues as AdminUser | undefined)?.username ?? ''

  return (
    <UserFormModal<UserEditValues>
      modal={props.modal}
      title={t('admin.users.edit.title', { username })}
      name="user-edit"
      toBody={updateBody}
    >
      <UserIdentityFields />
      <Form.Item
        name="password"
        label={t('admin.users.edit.newPassword')}
        extra={t('admin.users.edit.newPasswordHint')}
        rules={[validationRules(t).min(LIMITS.passwordMin)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </UserFormModal>
  )
}
