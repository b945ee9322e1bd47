import { Button, Flex, Table, Tooltip } from 'antd'
import { DownloadOutlined, EyeOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatBytes } from '~/lib/format'
import CopyButton from '~/components/share/copy_button'
import type { Share, ShareFileInfo as ShareFile } from '#api/share'
import { absoluteUrl, shareApiPaths } from '~/components/share_view/share_api'

/** Props of {@link FileTable}. */
export interface FileTableProps {
  share: Share
  /** Opens the preview of a file. */
  onPreview(file: ShareFile): void
}

/**
 * The files of a share: a real table (name, size, actions) whose action
 * buttons are named after their file ("Download notes.txt"). The direct
 * link is offered for shares without password only: with a password, the
 * link does not open without the share's cookie.
 */
export default function FileTable({ share, onPreview }: FileTableProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const appUrl = config.string('general.appUrl')

  return (
    <Table<ShareFile>
      rowKey="id"
      dataSource={share.files}
      pagination={false}
      size="middle"
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('share.files.empty') }}
      columns={[
        {
          key: 'name',
          title: t('share.files.name'),
          dataIndex: 'name',
          render: (name: string) => <span style={{ wordBreak: 'break-all' }}>{name}</span>,
        },
        {
          key: 'size',
          title: t('share.files.size'),
          dataIndex: 'size',
          width: 120,
          render: (size: string) => formatBytes(Number(size), locale),
        },
        {
          key: 'actions',
          title: t('share.files.actions'),
          width: 160,
          align: 'right',
          render: (_: unknown, file: ShareFile) => (
            <Flex gap={8} justify="flex-end">
              <Tooltip title={t('share.files.preview')}>
                <Button
                  icon={<EyeOutlined />}
                  aria-label={t('share.files.previewOf', { name: file.name })}
                  onClick={() => onPreview(file)}
                />
              </Tooltip>
              {!share.hasPassword && (
                <CopyButton
                  value={absoluteUrl(appUrl, shareApiPaths.directLink(share.id, file.id))}
                  label={t('share.files.copyLinkOf', { name: file.name })}
                />
              )}
              <Tooltip title={t('share.files.download')}>
                <Button
                  icon={<DownloadOutlined />}
                  href={shareApiPaths.file(share.id, file.id, true)}
                  aria-label={t('share.files.downloadOf', { name: file.name })}
                />
              </Tooltip>
            </Flex>
          ),
        },
      ]}
    />
  )
}
