/**
 * The create-user dialog: username, e-mail, admin, and either a password set
 * here or an invitation by e-mail (the server sets a random password and
 * mails it with a link; it refuses when mail is not configured, so the
 * choice is disabled with the reason while e-mail is off).
 */
import { Alert, Form, Input, Radio } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { useValidationRules } from '~/lib/validation'
import { createBody, type UserCreateValues } from '~/admin/resources/users/types'
import {
  UserFormModal,
  UserIdentityFields,
  useUserModalForm,
} from '~/admin/resources/users/user_form_modal'
import { useMailEnabled } from '~/admin/lib/mail_status'

/** `useModalForm` of the create dialog, to open it from the list. */
export function useUserCreateModal() {
  return useUserModalForm<UserCreateValues>('create', 'admin.users.created')
}

/** The dialog itself. */
export function UserCreate(props: { modal: ReturnType<typeof useUserCreateModal> }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const mode = Form.useWatch('mode', props.modal.form) ?? 'password'
  const mailOff = useMailEnabled() === false

  return (
    <UserFormModal<UserCreateValues>
      modal={props.modal}
      title={t('admin.users.create.title')}
      okText={t('admin.users.create.submit')}
      name="user-create"
      initialValues={{ mode: 'password', isAdmin: false }}
      toBody={createBody}
    >
      <UserIdentityFields />
      <Form.Item
        name="mode"
        label={t('admin.users.create.mode.label')}
        extra={
          mailOff ? (
            <span data-testid="invite-unavailable">
              {t('admin.users.create.inviteUnavailable')}
            </span>
          ) : undefined
        }
      >
        <Radio.Group>
          <Radio value="password">{t('admin.users.create.mode.password')}</Radio>
          <Radio value="invite" disabled={mailOff}>
            {t('admin.users.create.mode.invite')}
          </Radio>
        </Radio.Group>
      </Form.Item>
      {mode === 'password' ? (
        <Form.Item
          name="password"
          label={t('admin.users.fields.password.label')}
          rules={rules.password}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      ) : (
        <Alert type="info" showIcon message={t('admin.users.create.inviteHint')} />
      )}
    </UserFormModal>
  )
}
