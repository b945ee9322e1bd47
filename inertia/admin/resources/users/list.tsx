/**
 * Users: a table (username, e-mail, admin) with create, edit and delete.
 * `GET /api/users` answers the whole list, so paging, sorting and filtering
 * happen in the browser. Deleting asks for confirmation; the server refuses
 * the last admin and the panel shows why. On a phone each user is a block
 * of labelled lines with its buttons (stacked_table).
 */
import { Button, Space, Table } from 'antd'
import { EditOutlined, PlusOutlined } from '@ant-design/icons'
import { DeleteButton, List, useTable } from '@refinedev/antd'
import { useTranslate } from '~/lib/i18n'
import { booleanColumn } from '~/admin/components/columns/boolean_column'
import { textColumn } from '~/admin/components/columns/text_column'
import { useAdminErrorText } from '~/admin/lib/errors'
import type { AdminUser } from '~/admin/resources/users/types'
import { UserCreate, useUserCreateModal } from '~/admin/resources/users/create'
import { UserEdit, useUserEditModal } from '~/admin/resources/users/edit'
import { useListPage } from '~/admin/lib/list_page'

/** The users page (`/admin/users`). */
export function UserList() {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { tableProps } = useTable<AdminUser>({
    resource: 'users',
    pagination: { mode: 'client', pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: false,
  })
  const createModal = useUserCreateModal()
  const editModal = useUserEditModal()
  const yesNo = { yes: t('admin.common.yes'), no: t('admin.common.no') }
  const list = useListPage()

  return (
    <List
      title={t('admin.users.title')}
      wrapperProps={list.wrapperProps}
      headerButtons={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => createModal.show()}>
          {t('admin.users.create.open')}
        </Button>
      }
    >
      <Table {...tableProps} rowKey="id" data-testid="users-table" className={list.table}>
        <Table.Column<AdminUser>
          key="username"
          {...textColumn<AdminUser>('username', t('admin.users.fields.username.label'))}
        />
        <Table.Column<AdminUser>
          key="email"
          {...textColumn<AdminUser>('email', t('admin.users.fields.email.label'))}
        />
        <Table.Column<AdminUser>
          key="isAdmin"
          {...booleanColumn<AdminUser>('isAdmin', t('admin.users.fields.isAdmin.label'), yesNo)}
        />
        <Table.Column<AdminUser>
          key="actions"
          title={t('admin.common.actions')}
          render={(_, record) => (
            <Space>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('admin.users.edit.open', { username: record.username })}
                onClick={() => editModal.show(record.id)}
              />
              <DeleteButton
                size="small"
                hideText
                resource="users"
                recordItemId={record.id}
                aria-label={t('admin.users.delete.open', { username: record.username })}
                confirmTitle={t('admin.users.delete.confirm', { username: record.username })}
                confirmOkText={t('admin.users.delete.ok')}
                confirmCancelText={t('admin.common.cancel')}
                successNotification={{
                  type: 'success',
                  message: t('admin.users.deleted', { username: record.username }),
                }}
                errorNotification={(error) => ({ type: 'error', message: errorText(error) })}
              />
            </Space>
          )}
        />
      </Table>
      <UserCreate modal={createModal} />
      <UserEdit modal={editModal} />
    </List>
  )
}
