import type { ReactNode } from 'react'
import { Flex, theme } from 'antd'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import type { Share } from '#api/share'

/**
 * The share's heading (its name, or its id when unnamed), its description
 * as plain text with its line breaks, and a line with who shared it, the
 * number and size of files and when it expires. Plain headings and
 * paragraphs in antd's colours: antd's Typography brings its editing,
 * copying and ellipsis code (rc-textarea, rc-input) to every visitor.
 */
export default function ShareHeader({ share, actions }: { share: Share; actions?: ReactNode }) {
  const { t, locale } = useI18n()
  const { token } = theme.useToken()
  const facts = [
    share.creator ? t('share.view.sharedBy', { username: share.creator.username }) : null,
    t('share.view.files', { count: share.files.length, size: formatBytes(share.size, locale) }),
    isNeverExpiring(share.expiration)
      ? t('share.view.neverExpires')
      : t('share.view.expiresAt', { date: formatDate(share.expiration, locale) }),
  ].filter(Boolean)

  return (
    <Flex justify="space-between" align="flex-start" gap={16} wrap>
      <div style={{ minWidth: 0, flex: '1 1 320px' }}>
        <h1
          style={{
            margin: 0,
            fontSize: 30,
            fontWeight: token.fontWeightStrong,
            lineHeight: token.lineHeightHeading1,
            color: token.colorTextHeading,
            wordBreak: 'break-word',
          }}
        >
          <bdi>{share.name || share.id}</bdi>
        </h1>
        {share.description && (
          <p
            style={{
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              marginTop: 8,
              marginBottom: 0,
            }}
            data-testid="share-description"
          >
            {share.description}
          </p>
        )}
        <p style={{ color: token.colorTextDescription, marginTop: 8, marginBottom: 0 }}>
          {facts.join(' · ')}
        </p>
      </div>
      {actions}
    </Flex>
  )
}
