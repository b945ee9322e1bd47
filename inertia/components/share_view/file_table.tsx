import { Button, Flex, theme } from 'antd'
import type { CSSProperties } from 'react'
import { DownloadOutlined, EyeOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatBytes } from '~/lib/format'
import CopyButton from '~/components/share/copy_button'
import Tooltip from '~/lib/deferred_tooltip'
import type { Share, ShareFileInfo as ShareFile } from '#api/share'
import { absoluteUrl, shareApiPaths } from '~/components/share_view/share_api'
import { canPreview } from '~/components/share_view/preview_kind'

/** Props of {@link FileTable}. */
export interface FileTableProps {
  share: Share
  /** Opens the preview of a file. */
  onPreview(file: ShareFile): void
}

/**
 * The files of a share: a real table (name, size, actions) whose action
 * buttons are named after their file ("Download notes.txt"). Preview is
 * offered only for files a preview can show (not for a binary). The direct
 * link is offered for shares without password only: with a password, the
 * link does not open without the share's cookie.
 *
 * A plain <table> drawn with antd's tokens (the look of a `middle` antd
 * Table without pagination) rather than antd's Table: that one brings its
 * sorting, filtering, selection and pagination (rc-table, rc-tree,
 * rc-select...), about half of a visitor's JavaScript, for a list of rows
 * (issue 15). The buttons' tooltips load on first use (deferred_tooltip).
 */
export default function FileTable({ share, onPreview }: FileTableProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const { token } = theme.useToken()
  const appUrl = config.string('general.appUrl')
  const cell: CSSProperties = {
    padding: `${token.paddingSM}px ${token.paddingXS}px`,
    borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
    textAlign: 'start',
    verticalAlign: 'middle',
  }
  const head: CSSProperties = {
    ...cell,
    background: token.colorFillAlter,
    color: token.colorTextHeading,
    fontWeight: token.fontWeightStrong,
  }
  const first: CSSProperties = { paddingInlineStart: token.padding }
  const last: CSSProperties = { paddingInlineEnd: token.padding, textAlign: 'end', width: 160 }
  return (
    <div style={{ overflowX: 'auto' }}>
      <table style={{ width: '100%', minWidth: 'max-content', borderCollapse: 'collapse', color: token.colorText }}>
        <thead>
          <tr>
            <th scope="col" style={{ ...head, ...first }}>
              {t('share.files.name')}
            </th>
            <th scope="col" style={{ ...head, width: 120 }}>
              {t('share.files.size')}
            </th>
            <th scope="col" style={{ ...head, ...last }}>
              {t('share.files.actions')}
            </th>
          </tr>
        </thead>
        <tbody>
          {share.files.length === 0 && (
            <tr>
              <td colSpan={3} style={{ ...cell, textAlign: 'center', color: token.colorTextDescription, padding: token.paddingLG }}>
                {t('share.files.empty')}
              </td>
            </tr>
          )}
          {share.files.map((file) => (
            <tr key={file.id}>
              <td style={{ ...cell, ...first, wordBreak: 'break-all' }}>{file.name}</td>
              <td style={cell}>{formatBytes(Number(file.size), locale)}</td>
              <td style={{ ...cell, ...last }}>
                <Flex gap={8} justify="flex-end">
                  {canPreview(file.name, Number(file.size)) && (
                    <Tooltip title={t('share.files.preview')}>
                      <Button
                        icon={<EyeOutlined />}
                        aria-label={t('share.files.previewOf', { name: file.name })}
                        onClick={() => onPreview(file)}
                      />
                    </Tooltip>
                  )}
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
