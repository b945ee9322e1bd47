/**
 * What the create- and edit-user dialogs share: their `useModalForm` set-up,
 * the modal with the server's refusal above the form (or at its field), and
 * the username, e-mail and admin fields.
 */
import type { ReactNode } from 'react'
import { Alert, Form, Input, Modal, Switch } from 'antd'
import { useModalForm } from '@refinedev/antd'
import type { HttpError } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { useValidationRules } from '~/lib/validation'
import type { AdminUser } from '~/admin/resources/users/types'
import { useFormErrors } from '~/admin/resources/users/use_form_errors'

/**
 * `useModalForm` of a user dialog: no redirect, refusals shown in the dialog
 * (no notification), and `successMessage` (given the user's name) on success.
 */
export function useUserModalForm<Values extends object>(
  action: 'create' | 'edit',
  successMessage: string
) {
  const t = useTranslate()
  return useModalForm<AdminUser, HttpError, Values>({
    action,
    resource: 'users',
    redirect: false,
    errorNotification: false,
    successNotification: (data) => ({
      type: 'success',
      message: t(successMessage, {
        username: (data?.data as AdminUser | undefined)?.username ?? '',
      }),
    }),
  })
}

/** Props of {@link UserFormModal}. */
export interface UserFormModalProps<Values extends object> {
  modal: ReturnType<typeof useUserModalForm<Values>>
  title: string
  okText?: string
  /** The form's name (prefix of its fields' ids). */
  name: string
  initialValues?: Partial<Values>
  /** The request body the form's values become. */
  toBody: (values: Values) => unknown
  children: ReactNode
}

/** A user dialog: sends `toBody(values)` and shows a refusal at its field or above the form. */
export function UserFormModal<Values extends object>(props: UserFormModalProps<Values>) {
  const { modalProps, formProps, form } = props.modal
  const errors = useFormErrors(form)

  const submit = async (values: Values) => {
    errors.clear()
    try {
      await formProps.onFinish?.(props.toBody(values) as Values)
    } catch (error) {
      errors.show(error)
    }
  }

  return (
    <Modal
      {...modalProps}
      title={props.title}
      width={520}
      okText={props.okText ?? modalProps.okText}
      afterClose={errors.clear}
    >
      {errors.message ? (
        <Alert
          type="error"
          showIcon
          message={errors.message}
          style={{ marginBottom: 16 }}
          role="alert"
        />
      ) : null}
      <Form
        {...formProps}
        name={props.name}
        layout="vertical"
        onFinish={submit}
        initialValues={props.initialValues ?? formProps.initialValues}
      >
        {props.children}
      </Form>
    </Modal>
  )
}

/** The username, e-mail and admin fields of both dialogs. */
export function UserIdentityFields() {
  const t = useTranslate()
  const rules = useValidationRules()
  return (
    <>
      <Form.Item
        name="username"
        label={t('admin.users.fields.username.label')}
        rules={rules.username}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="email" label={t('admin.users.fields.email.label')} rules={rules.email}>
        <Input type="email" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="isAdmin"
        label={t('admin.users.fields.isAdmin.label')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
    </>
  )
}
