import { useRef, useState } from 'react'
import { Button, Space, Table, Tag, Tooltip, Typography } from 'antd'
import {
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  InfoCircleOutlined,
  LinkOutlined,
} from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import LinkButton from '~/components/link_button'
import type { MyShare } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import { sharePagePath } from '~/components/share/share_link_modal'
import {
  CARD_TABLE,
  CELL_ACTIONS,
  CELL_STACKED,
  CELL_TITLE,
  CellLabel,
} from '~/components/account/card_table'

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
 * A description: its first lines on wide screens, with all of it in a
 * tooltip while it is cut (and in the info modal); whole on phones, where
 * the tooltip stays closed.
 */
function ClampedText({ text }: { text: string }) {
  const ref = useRef<HTMLSpanElement>(null)
  const [open, setOpen] = useState(false)
  const onOpenChange = (next: boolean) => {
    const element = ref.current
    setOpen(next && element !== null && element.scrollHeight > element.clientHeight + 1)
  }
  return (
    <Tooltip title={text} open={open} onOpenChange={onOpenChange}>
      <span ref={ref} className="tern-wrap tern-clamp" data-allow-clip>
        {text}
      </span>
    </Tooltip>
  )
}

/**
 * The user's shares: id, name, description, visitors, expiry, creation date
 * and size, newest first (sortable by creation date, expiry, visitors and
 * size), with the row actions info, link, edit and delete. The table fits
 * its width: long ids and names wrap, a description shows its first lines
 * (all of it in a tooltip and in the info modal). On phones each share is a
 * card (see ~/components/account/card_table): id and name as its title,
 * then each value next to its column's name, then the actions.
 */
export default function SharesTable({
  shares,
  onInfo,
  onLink,
  onDelete,
  deleting,
}: SharesTableProps) {
  const { t, locale } = useI18n()
  const expiry = (share: MyShare) =>
    isNeverExpiring(share.expiration) ? Number.MAX_SAFE_INTEGER : time(share.expiration)
  const titles = {
    id: t('my_shares.columns.id'),
    name: t('my_shares.columns.name'),
    description: t('my_shares.columns.description'),
    views: t('my_shares.columns.views'),
    expiresAt: t('my_shares.columns.expiresAt'),
    createdAt: t('my_shares.columns.createdAt'),
    size: t('my_shares.columns.size'),
  }

  return (
    <Table<MyShareRow>
      rowKey="id"
      className={CARD_TABLE}
      size="middle"
      dataSource={shares}
      pagination={shares.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      data-testid="my-shares-table"
      columns={[
        {
          key: 'id',
          title: titles.id,
          dataIndex: 'id',
          className: CELL_TITLE,
          width: 160,
          render: (id: string) => (
            <>
              <CellLabel>{titles.id}</CellLabel>
              <Typography.Text code className="tern-wrap">
                {id}
              </Typography.Text>
            </>
          ),
        },
        {
          key: 'name',
          title: titles.name,
          dataIndex: 'name',
          className: CELL_TITLE,
          width: 160,
          render: (name: string | null, share: MyShareRow) => (
            <div className="tern-wrap">
              <CellLabel>{titles.name}</CellLabel>
              {name || <Typography.Text type="secondary">—</Typography.Text>}
              {share.receivedThrough !== undefined && (
                <div>
                  <Tag
                    color="blue"
                    data-testid="received-through"
                    style={{ marginTop: 4, whiteSpace: 'normal' }}
                  >
                    {t('my_shares.receivedThrough', { token: share.receivedThrough })}
                  </Tag>
                </div>
              )}
            </div>
          ),
        },
        {
          key: 'description',
          title: titles.description,
          dataIndex: 'description',
          // A text: its label above it on phones (a missing one stays on one line).
          onCell: (share) => ({ className: share.description ? CELL_STACKED : undefined }),
          render: (description: string | null) => (
            <>
              <CellLabel>{titles.description}</CellLabel>
              {description ? (
                <ClampedText text={description} />
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              )}
            </>
          ),
        },
        {
          key: 'views',
          title: titles.views,
          dataIndex: 'views',
          align: 'end',
          sorter: (a, b) => a.views - b.views,
          render: (views: number) => (
            <>
              <CellLabel>{titles.views}</CellLabel>
              <span>{views}</span>
            </>
          ),
        },
        {
          key: 'expiresAt',
          title: titles.expiresAt,
          dataIndex: 'expiration',
          sorter: (a, b) => expiry(a) - expiry(b),
          render: (expiration: string) => (
            <>
              <CellLabel>{titles.expiresAt}</CellLabel>
              <span style={{ whiteSpace: 'nowrap' }}>
                {isNeverExpiring(expiration)
                  ? t('my_shares.never')
                  : formatDate(expiration, locale)}
              </span>
            </>
          ),
        },
        {
          key: 'createdAt',
          title: titles.createdAt,
          dataIndex: 'createdAt',
          defaultSortOrder: 'descend',
          sortDirections: ['descend', 'ascend', 'descend'],
          sorter: (a, b) => time(a.createdAt) - time(b.createdAt),
          render: (createdAt: string) => (
            <>
              <CellLabel>{titles.createdAt}</CellLabel>
              <span style={{ whiteSpace: 'nowrap' }}>{formatDate(createdAt, locale)}</span>
            </>
          ),
        },
        {
          key: 'size',
          title: titles.size,
          dataIndex: 'size',
          align: 'end',
          sorter: (a, b) => a.size - b.size,
          render: (size: number) => (
            <>
              <CellLabel>{titles.size}</CellLabel>
              <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(size, locale)}</span>
            </>
          ),
        },
        {
          key: 'actions',
          title: <span style={VISUALLY_HIDDEN}>{t('my_shares.columns.actions')}</span>,
          align: 'end',
          className: CELL_ACTIONS,
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
