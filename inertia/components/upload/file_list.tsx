import { Button, Grid, Progress, Table } from 'antd'
import { DeleteOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatPercent } from '~/lib/format'
import { VISUALLY_HIDDEN } from '~/lib/a11y'

/** Where one file of the upload page stands. */
export type UploadItemStatus = 'waiting' | 'uploading' | 'retrying' | 'done' | 'failed'

/** A file chosen on the upload page, with its upload progress. */
export interface UploadItem {
  /** A key unique on the page. */
  key: string
  file: File
  /** Bytes stored on the server. */
  uploaded: number
  status: UploadItemStatus
}

/** Props of {@link UploadFileList}. */
export interface UploadFileListProps {
  items: UploadItem[]
  /** Removes a file; absent while uploading (the remove buttons are hidden). */
  onRemove?: (key: string) => void
  /** Shows the progress column. */
  showProgress: boolean
}

/**
 * The chosen files: name, size, a remove button before the upload and a
 * progress bar (with an accessible name and the percentage written for the
 * language) during it. Long names wrap (never cut with an ellipsis). On a
 * phone (under antd's `sm`, 576 px) the size column gives way to the
 * progress while uploading, so a 360 px screen keeps the name readable.
 */
export default function UploadFileList({ items, onRemove, showProgress }: UploadFileListProps) {
  const { t, locale } = useI18n()
  const narrow = !Grid.useBreakpoint().sm
  const percentOf = (item: UploadItem) =>
    item.file.size === 0
      ? item.status === 'done'
        ? 100
        : 0
      : Math.floor((item.uploaded / item.file.size) * 100)

  return (
    <Table<UploadItem>
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={items}
      data-testid="upload-file-list"
      tableLayout="fixed"
      columns={[
        {
          title: t('upload.files.name'),
          dataIndex: 'name',
          // Fixed layout: the name takes what the other columns leave and wraps anywhere, whole at every width.
          // <bdi>: a Latin name keeps its order inside right-to-left text.
          render: (_, item) => <bdi style={{ overflowWrap: 'anywhere' }}>{item.file.name}</bdi>,
        },
        {
          title: t('upload.files.size'),
          dataIndex: 'size',
          width: 100,
          ...(showProgress ? { responsive: ['sm' as const] } : {}),
          render: (_, item) => (
            <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(item.file.size, locale)}</span>
          ),
        },
        showProgress
          ? {
              title: t('upload.files.progress'),
              dataIndex: 'progress',
              width: narrow ? 130 : 220,
              render: (_, item) => (
                <Progress
                  percent={percentOf(item)}
                  size="small"
                  status={
                    item.status === 'failed'
                      ? 'exception'
                      : item.status === 'done'
                        ? 'success'
                        : 'active'
                  }
                  aria-label={t('upload.files.progressOf', { name: item.file.name })}
                  format={(percent) =>
                    item.status === 'retrying'
                      ? t('upload.files.retrying')
                      : item.status === 'failed'
                        ? t('upload.files.failed')
                        : formatPercent(percent ?? 0, locale)
                  }
                />
              ),
            }
          : {
              title: <span style={VISUALLY_HIDDEN}>{t('upload.files.actions')}</span>,
              dataIndex: 'actions',
              width: 64,
              render: (_, item) =>
                onRemove && (
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('upload.files.remove', { name: item.file.name })}
                    onClick={() => onRemove(item.key)}
                  />
                ),
            },
      ]}
    />
  )
}
