import { Button, ConfigProvider, Flex, theme } from 'antd'
import { useContext, type CSSProperties } from 'react'
import { useStyleRegister } from '@ant-design/cssinjs'
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
 * rc-select...), about half of a visitor's JavaScript, for a list of rows.
 * The buttons' tooltips load on first use (deferred_tooltip).
 *
 * Names wrap anywhere rather than widen the table. On a phone (under antd's
 * `sm`, 576 px) the Size column gives way: the size is written under the
 * name, so name, size and the action buttons fit a 360 px screen.
 * A CSS media query (registered through antd's CSS-in-JS, with the
 * page's nonce), not a JS breakpoint, so the first render is already right.
 */
export default function FileTable({ share, onPreview }: FileTableProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const { theme: antdTheme, token } = theme.useToken()
  const { csp } = useContext(ConfigProvider.ConfigContext)
  useStyleRegister(
    { theme: antdTheme, token, path: ['tern-file-table'], nonce: () => csp?.nonce ?? '' },
    () => ({
      '.tern-file-size': { width: 120 },
      '.tern-file-actions': { width: 160 },
      '.tern-file-size-under': { display: 'none' },
      [`@media (max-width: ${token.screenXSMax}px)`]: {
        '.tern-file-size': { display: 'none' },
        '.tern-file-actions': { width: 'auto' },
        '.tern-file-size-under': {
          display: 'block',
          marginTop: token.marginXXS,
          color: token.colorTextDescription,
        },
      },
    })
  )
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
  const last: CSSProperties = { paddingInlineEnd: token.padding, textAlign: 'end' }
  return (
    <div style={{ overflowX: 'auto' }}>
      <table style={{ width: '100%', borderCollapse: 'collapse', color: token.colorText }}>
        <thead>
          <tr>
            <th scope="col" style={{ ...head, ...first }}>
              {t('share.files.name')}
            </th>
            <th scope="col" className="tern-file-size" style={head}>
              {t('share.files.size')}
            </th>
            <th scope="col" className="tern-file-actions" style={{ ...head, ...last }}>
              {t('share.files.actions')}
            </th>
          </tr>
        </thead>
        <tbody>
          {share.files.length === 0 && (
            <tr>
              <td
                colSpan={3}
                style={{
                  ...cell,
                  textAlign: 'center',
                  color: token.colorTextDescription,
                  padding: token.paddingLG,
                }}
              >
                {t('share.files.empty')}
              </td>
            </tr>
          )}
          {share.files.map((file) => (
            <tr key={file.id}>
              <td style={{ ...cell, ...first, overflowWrap: 'anywhere' }}>
                <bdi>{file.name}</bdi>
                <div className="tern-file-size-under">{formatBytes(Number(file.size), locale)}</div>
              </td>
              <td className="tern-file-size" style={{ ...cell, whiteSpace: 'nowrap' }}>
                {formatBytes(Number(file.size), locale)}
              </td>
              <td className="tern-file-actions" style={{ ...cell, ...last }}>
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
