/**
 * Notifications that could not be delivered after every attempt
 * (`GET /api/notifications/deliveries`): event, channel, recipient, attempts,
 * last error (secrets removed by the server) and when it failed. Retry puts
 * one back in the outbox (`POST .../:id/retry`); discard deletes it after a
 * confirmation (`DELETE .../:id`). Paging and sorting happen in the browser.
 * On a phone each delivery is a block of labelled lines with its buttons
 * (stacked_table).
 */
import { Alert, Button, Space, Table, Typography } from 'antd'
import { ReloadOutlined } from '@ant-design/icons'
import { DeleteButton, List, useTable } from '@refinedev/antd'
import { useCustomMutation } from '@refinedev/core'
import { useI18n, useTranslate } from '~/lib/i18n'
import { dateColumn } from '~/admin/components/columns/date_column'
import { textColumn } from '~/admin/components/columns/text_column'
import { useAdminErrorText } from '~/admin/lib/errors'
import { useListPage } from '~/admin/lib/list_page'
import { labelled } from '~/lib/stacked_table'
import { apiUrl } from '~/lib/api_url'
import type { Delivery } from '#api/notifications'

/** The API path of the deliveries (the Refine resource name). */
export const DELIVERIES_PATH = 'notifications/deliveries'

/** The failed deliveries page (`/admin/deliveries`). */
export function DeliveryList() {
  const t = useTranslate()
  const { locale } = useI18n()
  const errorText = useAdminErrorText()
  const { tableProps, tableQuery } = useTable<Delivery>({
    resource: DELIVERIES_PATH,
    pagination: { mode: 'client', pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: false,
  })
  const { mutate: retry, mutation } = useCustomMutation()
  const field = (name: string) => t(`admin.deliveries.fields.${name}.label`)
  const list = useListPage()
  const retryOne = (record: Delivery) =>
    retry(
      {
        url: apiUrl('notifications.deliveries.retry', { id: record.id }),
        method: 'post',
        values: {},
        successNotification: { type: 'success', message: t('admin.deliveries.retry.done') },
        errorNotification: (error) => ({ type: 'error', message: errorText(error) }),
      },
      { onSettled: () => void tableQuery.refetch() }
    )

  return (
    <List wrapperProps={list.wrapperProps} title={t('admin.deliveries.title')}>
      <Alert
        type="info"
        showIcon
        message={t('admin.deliveries.intro')}
        style={{ marginBottom: 16 }}
      />
      <Table
        {...tableProps}
        rowKey="id"
        data-testid="deliveries-table"
        scroll={{ x: true }}
        className={list.table}
        locale={{ emptyText: t('admin.deliveries.empty') }}
      >
        <Table.Column<Delivery>
          key="eventType"
          {...textColumn<Delivery>('eventType', field('eventType'))}
        />
        <Table.Column<Delivery>
          key="channel"
          {...textColumn<Delivery>('channel', field('channel'))}
        />
        <Table.Column<Delivery>
          key="target"
          {...textColumn<Delivery>('target', field('target'), { empty: '—' })}
        />
        <Table.Column<Delivery>
          key="attempts"
          title={field('attempts')}
          {...labelled(field('attempts'))}
          align="end"
          render={(_, record) => `${record.attempts} / ${record.maxAttempts}`}
          sorter={(a, b) => a.attempts - b.attempts}
        />
        <Table.Column<Delivery>
          key="lastError"
          title={field('lastError')}
          {...labelled(field('lastError'))}
          render={(_, record) => (
            <Typography.Text type="danger" style={{ wordBreak: 'break-word' }}>
              {record.lastError ?? '—'}
            </Typography.Text>
          )}
        />
        <Table.Column<Delivery>
          key="updatedAt"
          {...dateColumn<Delivery>('updatedAt', field('updatedAt'), locale)}
        />
        <Table.Column<Delivery>
          key="actions"
          title={t('admin.common.actions')}
          render={(_, record) => (
            <Space>
              <Button
                size="small"
                icon={<ReloadOutlined />}
                loading={mutation.isPending}
                aria-label={t('admin.deliveries.retry.open', {
                  event: record.eventType,
                  target: record.target,
                })}
                onClick={() => retryOne(record)}
              >
                {t('admin.deliveries.retry.button')}
              </Button>
              <DeleteButton
                size="small"
                hideText
                resource={DELIVERIES_PATH}
                recordItemId={record.id}
                aria-label={t('admin.deliveries.discard.open', {
                  event: record.eventType,
                  target: record.target,
                })}
                confirmTitle={t('admin.deliveries.discard.confirm')}
                confirmOkText={t('admin.deliveries.discard.ok')}
                confirmCancelText={t('admin.common.cancel')}
                successNotification={{ type: 'success', message: t('admin.deliveries.discarded') }}
                errorNotification={(error) => ({ type: 'error', message: errorText(error) })}
              />
            </Space>
          )}
        />
      </Table>
    </List>
  )
}
