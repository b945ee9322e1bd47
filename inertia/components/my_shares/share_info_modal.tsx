import { Descriptions, List, Modal, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { formatBytes, formatDate, isNeverExpiring } from '~/lib/format'
import type { MyShare } from '#api/share'

/** Props of {@link ShareInfoModal}. */
export interface ShareInfoModalProps {
  /** The share shown; null closes the modal. */
  share: MyShare | null
  onClose: () => void
}

/**
 * Every detail of one of the user's shares: id, name, description, size,
 * visitors, view limit, password protection, recipients, creation and
 * expiry dates, and its files.
 */
export default function ShareInfoModal({ share, onClose }: ShareInfoModalProps) {
  const { t, locale } = useI18n()
  const none = <Typography.Text type="secondary">{t('my_shares.info.none')}</Typography.Text>
  return (
    <Modal
      open={share !== null}
      onCancel={onClose}
      footer={null}
      title={t('my_shares.info.title')}
      destroyOnHidden
      width={640}
    >
      {share && (
        <Descriptions
          bordered
          size="small"
          column={1}
          data-testid="share-info"
          items={[
            {
              key: 'id',
              label: t('my_shares.columns.id'),
              children: <Typography.Text code>{share.id}</Typography.Text>,
            },
            { key: 'name', label: t('my_shares.columns.name'), children: share.name || none },
            {
              key: 'description',
              label: t('my_shares.columns.description'),
              children: share.description ? (
                <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {share.description}
                </span>
              ) : (
                none
              ),
            },
            {
              key: 'size',
              label: t('my_shares.columns.size'),
              children: formatBytes(share.size, locale),
            },
            { key: 'views', label: t('my_shares.columns.views'), children: share.views },
            {
              key: 'maxViews',
              label: t('my_shares.info.maxViews'),
              children: share.security.maxViews ?? t('my_shares.info.unlimited'),
            },
            {
              key: 'password',
              label: t('my_shares.info.passwordProtected'),
              children: share.security.passwordProtected
                ? t('my_shares.info.yes')
                : t('my_shares.info.no'),
            },
            {
              key: 'recipients',
              label: t('my_shares.info.recipients'),
              children: share.recipients.length ? share.recipients.join(', ') : none,
            },
            {
              key: 'createdAt',
              label: t('my_shares.columns.createdAt'),
              children: formatDate(share.createdAt, locale),
            },
            {
              key: 'expiresAt',
              label: t('my_shares.columns.expiresAt'),
              children: isNeverExpiring(share.expiration)
                ? t('my_shares.never')
                : formatDate(share.expiration, locale),
            },
            {
              key: 'files',
              label: t('my_shares.info.files', { count: share.files.length }),
              children: (
                <List
                  size="small"
                  split={false}
                  dataSource={share.files}
                  locale={{ emptyText: t('my_shares.info.none') }}
                  renderItem={(file) => (
                    <List.Item style={{ padding: '2px 0' }}>
                      <span style={{ wordBreak: 'break-all' }}>{file.name}</span>
                      <Typography.Text
                        type="secondary"
                        style={{ marginInlineStart: 8, whiteSpace: 'nowrap' }}
                      >
                        {formatBytes(Number(file.size), locale)}
                      </Typography.Text>
                    </List.Item>
                  )}
                />
              ),
            },
          ]}
        />
      )}
    </Modal>
  )
}
