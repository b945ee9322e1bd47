import type { ReactNode } from 'react'
import { Flex, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import type { Share } from '#api/share'

/**
 * The share's heading (its name, or its id when unnamed), its description
 * as plain text with its line breaks, and a line with who shared it, the
 * number and size of files and when it expires.
 */
export default function ShareHeader({ share, actions }: { share: Share; actions?: ReactNode }) {
  const { t, locale } = useI18n()
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
        <Typography.Title level={1} style={{ margin: 0, fontSize: 30, wordBreak: 'break-word' }}>
          {share.name || share.id}
        </Typography.Title>
        {share.description && (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginTop: 8, marginBottom: 0 }} data-testid="share-description">
            {share.description}
          </Typography.Paragraph>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {facts.join(' · ')}
        </Typography.Paragraph>
      </div>
      {actions}
    </Flex>
  )
}
