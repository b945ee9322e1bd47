import { List, Typography, theme } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Link } from '@inertiajs/react'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate } from '~/lib/format'
import type { MyShare } from '#api/share'
import { reverseSharePaths } from '~/components/reverse_shares/types'

/**
 * The shares made through one reverse share (the expanded row of the
 * table): each links to its page (`/share/:id`) and shows its name, files,
 * size and creation date.
 */
export default function ReverseShareShares({ shares }: { shares: MyShare[] }) {
  const { t, locale } = useI18n()
  const { token } = theme.useToken()
  return (
    <List<MyShare>
      size="small"
      data-testid="reverse-share-shares"
      header={<Typography.Text strong>{t('reverse_shares.shares.title')}</Typography.Text>}
      dataSource={shares}
      locale={{ emptyText: t('reverse_shares.shares.none') }}
      renderItem={(share) => (
        <List.Item>
          <List.Item.Meta
            title={
              // antd gives links in a list title the text colour: this one looks like the link it is.
              <Link
                href={reverseSharePaths.sharePage(share.id)}
                style={{ color: token.colorLink, textDecoration: 'underline' }}
                data-testid="reverse-share-share-link"
              >
                {share.name ? `${share.name} (${share.id})` : share.id}
              </Link>
            }
            description={t('reverse_shares.shares.details', {
              files: share.files.length,
              size: formatBytes(share.size, locale),
              date: formatDate(share.createdAt, locale),
            })}
          />
        </List.Item>
      )}
    />
  )
}
