import { Button, Space, Table, Tooltip } from 'antd'
import { DeleteOutlined, LinkOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import ReverseShareShares from '~/components/reverse_shares/reverse_share_shares'
import type { ReverseShare } from '#api/reverse_share'
import { VISUALLY_HIDDEN } from '~/lib/a11y'

/** Props of {@link ReverseSharesTable}. */
export interface ReverseSharesTableProps {
  reverseShares: ReverseShare[]
  onLink: (reverseShare: ReverseShare) => void
  onDelete: (reverseShare: ReverseShare) => void
  /** Id of the reverse share being deleted (its delete button spins). */
  deleting: string | null
}

/**
 * The user's reverse shares: how many shares were made through each, the
 * uses left ("Unlimited" without a limit), the max share size and the
 * expiry, with the actions link and delete. A row expands to the shares made
 * through it, each linking to its page.
 */
export default function ReverseSharesTable({ reverseShares, onLink, onDelete, deleting }: ReverseSharesTableProps) {
  const { t, locale } = useI18n()
  return (
    <Table<ReverseShare>
      rowKey="id"
      dataSource={reverseShares}
      pagination={reverseShares.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      data-testid="reverse-shares-table"
      expandable={{
        expandedRowRender: (reverseShare) => <ReverseShareShares shares={reverseShare.shares} />,
        rowExpandable: (reverseShare) => reverseShare.shares.length > 0,
      }}
      columns={[
        {
          key: 'shares',
          title: t('reverse_shares.columns.shares'),
          render: (_: unknown, reverseShare: ReverseShare) => (
            <span data-testid="reverse-share-count">{reverseShare.shares.length}</span>
          ),
        },
        {
          key: 'remainingUses',
          title: t('reverse_shares.columns.remainingUses'),
          dataIndex: 'remainingUses',
          render: (remainingUses: number | null) => (
            <span data-testid="reverse-share-remaining">
              {remainingUses === null ? t('reverse_shares.unlimited') : remainingUses}
            </span>
          ),
        },
        {
          key: 'maxShareSize',
          title: t('reverse_shares.columns.maxShareSize'),
          dataIndex: 'maxShareSize',
          render: (maxShareSize: string) => (
            <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(Number(maxShareSize), locale)}</span>
          ),
        },
        {
          key: 'expiresAt',
          title: t('reverse_shares.columns.expiresAt'),
          dataIndex: 'shareExpiration',
          render: (expiration: string) => (
            <span style={{ whiteSpace: 'nowrap' }}>
              {isNeverExpiring(expiration) ? t('reverse_shares.never') : formatDate(expiration, locale)}
            </span>
          ),
        },
        {
          key: 'actions',
          title: <span style={VISUALLY_HIDDEN}>{t('reverse_shares.columns.actions')}</span>,
          align: 'end',
          fixed: 'right',
          render: (_: unknown, reverseShare: ReverseShare) => (
            <Space size={4} wrap={false}>
              <Tooltip title={t('reverse_shares.actions.link')}>
                <Button
                  type="text"
                  icon={<LinkOutlined />}
                  aria-label={t('reverse_shares.actions.link')}
                  onClick={() => onLink(reverseShare)}
                />
              </Tooltip>
              <Tooltip title={t('reverse_shares.actions.delete')}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  loading={deleting === reverseShare.id}
                  aria-label={t('reverse_shares.actions.delete')}
                  onClick={() => onDelete(reverseShare)}
                />
              </Tooltip>
            </Space>
          ),
        },
      ]}
    />
  )
}
