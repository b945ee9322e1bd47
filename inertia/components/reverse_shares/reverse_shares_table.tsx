import { Button, Space, Table, Tooltip } from 'antd'
import { DeleteOutlined, LinkOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import ReverseShareShares from '~/components/reverse_shares/reverse_share_shares'
import type { ReverseShare } from '#api/reverse_share'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import { CARD_TABLE, CELL_ACTIONS, CellLabel } from '~/components/account/card_table'

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
 * through it, each linking to its page. On phones each reverse share is a
 * card (see ~/components/account/card_table): each value next to its
 * column's name, then the expand button and the actions.
 */
export default function ReverseSharesTable({
  reverseShares,
  onLink,
  onDelete,
  deleting,
}: ReverseSharesTableProps) {
  const { t, locale } = useI18n()
  const titles = {
    shares: t('reverse_shares.columns.shares'),
    remainingUses: t('reverse_shares.columns.remainingUses'),
    maxShareSize: t('reverse_shares.columns.maxShareSize'),
    expiresAt: t('reverse_shares.columns.expiresAt'),
  }
  return (
    <Table<ReverseShare>
      rowKey="id"
      className={CARD_TABLE}
      dataSource={reverseShares}
      pagination={reverseShares.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      data-testid="reverse-shares-table"
      expandable={{
        expandedRowRender: (reverseShare) => <ReverseShareShares shares={reverseShare.shares} />,
        rowExpandable: (reverseShare) => reverseShare.shares.length > 0,
      }}
      columns={[
        {
          key: 'shares',
          title: titles.shares,
          render: (_: unknown, reverseShare: ReverseShare) => (
            <>
              <CellLabel>{titles.shares}</CellLabel>
              <span data-testid="reverse-share-count">{reverseShare.shares.length}</span>
            </>
          ),
        },
        {
          key: 'remainingUses',
          title: titles.remainingUses,
          dataIndex: 'remainingUses',
          render: (remainingUses: number | null) => (
            <>
              <CellLabel>{titles.remainingUses}</CellLabel>
              <span data-testid="reverse-share-remaining">
                {remainingUses === null ? t('reverse_shares.unlimited') : remainingUses}
              </span>
            </>
          ),
        },
        {
          key: 'maxShareSize',
          title: titles.maxShareSize,
          dataIndex: 'maxShareSize',
          render: (maxShareSize: string) => (
            <>
              <CellLabel>{titles.maxShareSize}</CellLabel>
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatBytes(Number(maxShareSize), locale)}
              </span>
            </>
          ),
        },
        {
          key: 'expiresAt',
          title: titles.expiresAt,
          dataIndex: 'shareExpiration',
          render: (expiration: string) => (
            <>
              <CellLabel>{titles.expiresAt}</CellLabel>
              <span style={{ whiteSpace: 'nowrap' }}>
                {isNeverExpiring(expiration)
                  ? t('reverse_shares.never')
                  : formatDate(expiration, locale)}
              </span>
            </>
          ),
        },
        {
          key: 'actions',
          title: <span style={VISUALLY_HIDDEN}>{t('reverse_shares.columns.actions')}</span>,
          align: 'end',
          className: CELL_ACTIONS,
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
