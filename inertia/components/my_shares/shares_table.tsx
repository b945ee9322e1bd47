import { Button, Space, Table, Tag, Tooltip, Typography } from 'antd'
import { DeleteOutlined, EditOutlined, ExportOutlined, InfoCircleOutlined, LinkOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import LinkButton from '~/components/link_button'
import type { MyShare } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import { sharePagePath } from '~/components/share/share_link_modal'

/** A row: one of my shares, or one received through my reverse share `receivedThrough` (its token). */
export type MyShareRow = MyShare & { receivedThrough?: string }

/** Props of {@link SharesTable}. */
export interface SharesTableProps {
  shares: MyShareRow[]
  onInfo: (share: MyShareRow) => void
  onLink: (share: MyShareRow) => void
  onDelete: (share: MyShareRow) => void
  /** Id of the share being deleted (its delete button spins). */
  deleting: string | null
}

function time(iso: string) {
  const value = new Date(iso).getTime()
  return Number.isNaN(value) ? 0 : value
}

/**
 * The user's shares: id, name, description, visitors, expiry, creation date
 * and size, newest first (sortable by creation date, expiry, visitors and
 * size), with the row actions info, link, edit and delete. On narrow
 * screens the table scrolls horizontally; the actions stay in view.
 */
export default function SharesTable({ shares, onInfo, onLink, onDelete, deleting }: SharesTableProps) {
  const { t, locale } = useI18n()
  const expiry = (share: MyShare) => (isNeverExpiring(share.expiration) ? Number.MAX_SAFE_INTEGER : time(share.expiration))

  return (
    <Table<MyShareRow>
      rowKey="id"
      dataSource={shares}
      pagination={shares.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      data-testid="my-shares-table"
      columns={[
        {
          key: 'id',
          title: t('my_shares.columns.id'),
          dataIndex: 'id',
          render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
        },
        {
          key: 'name',
          title: t('my_shares.columns.name'),
          dataIndex: 'name',
          render: (name: string | null, share: MyShareRow) => (
            <>
              {name || <Typography.Text type="secondary">—</Typography.Text>}
              {share.receivedThrough !== undefined && (
                <div>
                  <Tag color="blue" data-testid="received-through" style={{ marginTop: 4, whiteSpace: 'normal' }}>
                    {t('my_shares.receivedThrough', { token: share.receivedThrough })}
                  </Tag>
                </div>
              )}
            </>
          ),
        },
        {
          key: 'description',
          title: t('my_shares.columns.description'),
          dataIndex: 'description',
          render: (description: string | null) =>
            description ? (
              <Typography.Text ellipsis={{ tooltip: description }} style={{ maxWidth: 240 }}>
                {description}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
        },
        {
          key: 'views',
          title: t('my_shares.columns.views'),
          dataIndex: 'views',
          align: 'end',
          sorter: (a, b) => a.views - b.views,
        },
        {
          key: 'expiresAt',
          title: t('my_shares.columns.expiresAt'),
          dataIndex: 'expiration',
          sorter: (a, b) => expiry(a) - expiry(b),
          render: (expiration: string) => (
            <span style={{ whiteSpace: 'nowrap' }}>
              {isNeverExpiring(expiration) ? t('my_shares.never') : formatDate(expiration, locale)}
            </span>
          ),
        },
        {
          key: 'createdAt',
          title: t('my_shares.columns.createdAt'),
          dataIndex: 'createdAt',
          defaultSortOrder: 'descend',
          sortDirections: ['descend', 'ascend', 'descend'],
          sorter: (a, b) => time(a.createdAt) - time(b.createdAt),
          render: (createdAt: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(createdAt, locale)}</span>,
        },
        {
          key: 'size',
          title: t('my_shares.columns.size'),
          dataIndex: 'size',
          align: 'end',
          sorter: (a, b) => a.size - b.size,
          render: (size: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(size, locale)}</span>,
        },
        {
          key: 'actions',
          title: <span style={VISUALLY_HIDDEN}>{t('my_shares.columns.actions')}</span>,
          align: 'end',
          fixed: 'right',
          render: (_: unknown, share: MyShareRow) => (
            <Space size={4} wrap={false}>
              {share.receivedThrough !== undefined && (
                <Tooltip title={t('my_shares.actions.open')}>
                  <LinkButton
                    type="text"
                    href={sharePagePath(share.id)}
                    icon={<ExportOutlined />}
                    aria-label={t('my_shares.actions.openNamed', { id: share.id })}
                  />
                </Tooltip>
              )}
              <Tooltip title={t('my_shares.actions.info')}>
                <Button
                  type="text"
                  icon={<InfoCircleOutlined />}
                  aria-label={t('my_shares.actions.infoNamed', { id: share.id })}
                  onClick={() => onInfo(share)}
                />
              </Tooltip>
              <Tooltip title={t('my_shares.actions.link')}>
                <Button
                  type="text"
                  icon={<LinkOutlined />}
                  aria-label={t('my_shares.actions.linkNamed', { id: share.id })}
                  onClick={() => onLink(share)}
                />
              </Tooltip>
              {share.receivedThrough === undefined && (
                <>
                  <Tooltip title={t('my_shares.actions.edit')}>
                    <LinkButton
                      type="text"
                      href={sharePaths.editPage(share.id)}
                      icon={<EditOutlined />}
                      aria-label={t('my_shares.actions.editNamed', { id: share.id })}
                    />
                  </Tooltip>
                  <Tooltip title={t('my_shares.actions.delete')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      loading={deleting === share.id}
                      aria-label={t('my_shares.actions.deleteNamed', { id: share.id })}
                      onClick={() => onDelete(share)}
                    />
                  </Tooltip>
                </>
              )}
            </Space>
          ),
        },
      ]}
    />
  )
}
