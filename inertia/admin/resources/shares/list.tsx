/**
 * Every share of the instance (`GET /api/shares/all`): id (a link to the
 * share page), name, creator, size, views, expiry, creation date, and delete
 * with confirmation. The API answers the whole list: paging and sorting
 * happen in the browser. On a phone each share is a block of labelled
 * lines with its delete button (stacked_table).
 */
import { Space, Table, Typography } from 'antd'
import type { AdminShare } from '#api/share'
import { DeleteButton, List, useTable } from '@refinedev/antd'
import { useI18n, useTranslate } from '~/lib/i18n'
import { dateColumn } from '~/admin/components/columns/date_column'
import { sizeColumn } from '~/admin/components/columns/size_column'
import { textColumn } from '~/admin/components/columns/text_column'
import { useAdminErrorText } from '~/admin/lib/errors'
import { useListPage } from '~/admin/lib/list_page'
import { labelled } from '~/lib/stacked_table'

/** The shares page (`/admin/shares`). */
export function ShareList() {
  const t = useTranslate()
  const { locale } = useI18n()
  const errorText = useAdminErrorText()
  const { tableProps } = useTable<AdminShare>({
    resource: 'shares',
    pagination: { mode: 'client', pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: false,
  })
  const field = (name: string) => t(`admin.shares.fields.${name}.label`)
  const list = useListPage()

  return (
    <List wrapperProps={list.wrapperProps} title={t('admin.shares.title')}>
      <Table
        {...tableProps}
        rowKey="id"
        data-testid="shares-table"
        scroll={{ x: true }}
        className={list.table}
      >
        <Table.Column<AdminShare>
          key="id"
          {...textColumn<AdminShare>('id', field('id'))}
          render={(_, record) => (
            <Typography.Link href={`/share/${encodeURIComponent(record.id)}`} target="_blank">
              {record.id}
            </Typography.Link>
          )}
        />
        <Table.Column<AdminShare>
          key="name"
          {...textColumn<AdminShare>('name', field('name'), { empty: '—' })}
        />
        <Table.Column<AdminShare>
          key="creator"
          {...textColumn<AdminShare>('creator', field('creator'), {
            get: (record) => record.creator?.username,
            empty: t('admin.shares.anonymous'),
          })}
        />
        <Table.Column<AdminShare>
          key="size"
          {...sizeColumn<AdminShare>('size', field('size'), locale)}
        />
        <Table.Column<AdminShare>
          dataIndex="views"
          key="views"
          title={field('views')}
          {...labelled(field('views'))}
          align="end"
          sorter={(a, b) => a.views - b.views}
        />
        <Table.Column<AdminShare>
          key="expiration"
          {...dateColumn<AdminShare>(
            'expiration',
            field('expiration'),
            locale,
            t('admin.shares.never')
          )}
        />
        <Table.Column<AdminShare>
          key="createdAt"
          {...dateColumn<AdminShare>('createdAt', field('createdAt'), locale)}
        />
        <Table.Column<AdminShare>
          key="actions"
          title={t('admin.common.actions')}
          render={(_, record) => (
            <Space>
              <DeleteButton
                size="small"
                hideText
                resource="shares"
                recordItemId={record.id}
                aria-label={t('admin.shares.delete.open', { id: record.id })}
                confirmTitle={t('admin.shares.delete.confirm', { id: record.id })}
                confirmOkText={t('admin.shares.delete.ok')}
                confirmCancelText={t('admin.common.cancel')}
                successNotification={{
                  type: 'success',
                  message: t('admin.shares.deleted', { id: record.id }),
                }}
                errorNotification={(error) => ({ type: 'error', message: errorText(error) })}
              />
            </Space>
          )}
        />
      </Table>
    </List>
  )
}
