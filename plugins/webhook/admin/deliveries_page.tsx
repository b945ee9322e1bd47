/**
 * "Webhook deliveries" (`/admin/plugins/webhook/deliveries`): the outbox rows
 * of the webhook channel by status (failed first), read from
 * `GET /api/notifications/deliveries?status=<status>&channel=webhook`. A row
 * is either a routed event handed to the channel (no URL: it is fanned out
 * to every configured URL) or the request to one URL. Failed rows show their
 * last error and can be retried (`POST .../:id/retry`) or discarded after a
 * confirmation (`DELETE .../:id`); pending ones show when the next attempt
 * is due and refresh by themselves. On a phone each delivery is a block of
 * labelled lines with its buttons (stacked_table).
 */
import { useState } from 'react'
import { Alert, Button, Popconfirm, Radio, Space, Table, Tag, Typography } from 'antd'
import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons'
import { List } from '@refinedev/antd'
import { useCustom, useCustomMutation } from '@refinedev/core'
import { useI18n } from '~/lib/i18n'
import { dateColumn } from '~/admin/components/columns/date_column'
import { useAdminErrorText } from '~/admin/lib/errors'
import { useListPage } from '~/admin/lib/list_page'
import { labelled } from '~/lib/stacked_table'
import { apiUrl } from '~/lib/api_url'
import type { Delivery, DeliveryStatus } from '#api/notifications'

/** The API path of the deliveries. */
const DELIVERIES_URL = apiUrl('notifications.deliveries.index')
/** The outbox channel of the plugin. */
const CHANNEL = 'webhook'
const STATUSES: DeliveryStatus[] = ['failed', 'pending', 'delivered']
const STATUS_COLORS: Record<DeliveryStatus, string> = {
  failed: 'error',
  pending: 'processing',
  delivered: 'success',
}

/** See the module comment. */
export function WebhookDeliveriesPage() {
  const { t, locale } = useI18n()
  const errorText = useAdminErrorText()
  const [status, setStatus] = useState<DeliveryStatus>('failed')
  const { query } = useCustom<Delivery[] & Record<string, unknown>>({
    url: DELIVERIES_URL,
    method: 'get',
    config: { query: { status, channel: CHANNEL } },
    errorNotification: false,
    queryOptions: { refetchInterval: status === 'pending' ? 5000 : false },
  })
  const deliveries = (query.data?.data ?? []) as Delivery[]
  const { mutate, mutation } = useCustomMutation()
  const field = (name: string) => t(`admin.webhook.fields.${name}`)
  const targetText = (record: Delivery) => record.target || t('admin.webhook.everyUrl')
  const list = useListPage()

  const act = (record: Delivery, action: 'retry' | 'discard') =>
    mutate(
      {
        url: `${DELIVERIES_URL}/${encodeURIComponent(record.id)}${action === 'retry' ? '/retry' : ''}`,
        method: action === 'retry' ? 'post' : 'delete',
        values: {},
        successNotification: {
          type: 'success',
          message: t(action === 'retry' ? 'admin.webhook.retried' : 'admin.webhook.discarded'),
        },
        errorNotification: (error) => ({ type: 'error', message: errorText(error) }),
      },
      { onSettled: () => void query.refetch() }
    )

  return (
    <List wrapperProps={list.wrapperProps} title={t('admin.webhook.webhook')} breadcrumb={false}>
      <Alert type="info" showIcon message={t('admin.webhook.intro')} style={{ marginBottom: 16 }} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Radio.Group
          aria-label={t('admin.webhook.statusFilter')}
          optionType="button"
          value={status}
          onChange={(event) => setStatus(event.target.value)}
          options={STATUSES.map((value) => ({ value, label: t(`admin.webhook.status.${value}`) }))}
        />
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void query.refetch()}
          loading={query.isFetching}
        >
          {t('admin.webhook.refresh')}
        </Button>
      </Space>
      {query.error ? (
        <Alert type="error" showIcon message={errorText(query.error)} />
      ) : (
        <Table<Delivery>
          rowKey="id"
          data-testid="webhook-deliveries-table"
          dataSource={deliveries}
          loading={query.isLoading}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: true }}
          className={list.table}
          locale={{ emptyText: t(`admin.webhook.empty.${status}`) }}
        >
          <Table.Column<Delivery>
            key="eventType"
            dataIndex="eventType"
            title={field('event')}
            {...labelled(field('event'))}
          />
          <Table.Column<Delivery>
            key="target"
            title={field('url')}
            {...labelled(field('url'))}
            render={(_, record) => (
              <Typography.Text
                type={record.target ? undefined : 'secondary'}
                style={{ wordBreak: 'break-all' }}
              >
                {targetText(record)}
              </Typography.Text>
            )}
          />
          <Table.Column<Delivery>
            key="status"
            title={field('status')}
            {...labelled(field('status'))}
            render={(_, record) => (
              <Tag color={STATUS_COLORS[record.status]}>
                {t(`admin.webhook.status.${record.status}`)}
              </Tag>
            )}
          />
          <Table.Column<Delivery>
            key="attempts"
            title={field('attempts')}
            {...labelled(field('attempts'))}
            align="end"
            render={(_, record) => `${record.attempts} / ${record.maxAttempts}`}
          />
          <Table.Column<Delivery>
            key="lastError"
            title={field('lastError')}
            {...labelled(field('lastError'))}
            render={(_, record) =>
              record.lastError ? (
                <Typography.Text
                  type={record.status === 'delivered' ? 'secondary' : 'danger'}
                  style={{ wordBreak: 'break-word' }}
                >
                  {record.lastError}
                </Typography.Text>
              ) : (
                '—'
              )
            }
          />
          {status === 'pending' && (
            <Table.Column<Delivery>
              key="nextAttemptAt"
              {...dateColumn<Delivery>('nextAttemptAt', field('nextAttemptAt'), locale)}
            />
          )}
          <Table.Column<Delivery>
            key="updatedAt"
            {...dateColumn<Delivery>(
              status === 'delivered' ? 'deliveredAt' : 'updatedAt',
              field(status === 'delivered' ? 'deliveredAt' : 'updatedAt'),
              locale
            )}
          />
          {status === 'failed' && (
            <Table.Column<Delivery>
              key="actions"
              title={t('admin.common.actions')}
              render={(_, record) => {
                const names = { event: record.eventType, target: targetText(record) }
                return (
                  <Space>
                    <Button
                      size="small"
                      icon={<ReloadOutlined />}
                      loading={mutation.isPending}
                      aria-label={t('admin.webhook.retry', names)}
                      onClick={() => act(record, 'retry')}
                    >
                      {t('admin.webhook.retryButton')}
                    </Button>
                    <Popconfirm
                      title={t('admin.webhook.discardConfirm')}
                      okText={t('admin.webhook.discardOk')}
                      cancelText={t('admin.common.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => act(record, 'discard')}
                    >
                      <Button
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('admin.webhook.discard', names)}
                      />
                    </Popconfirm>
                  </Space>
                )
              }}
            />
          )}
        </Table>
      )}
    </List>
  )
}
