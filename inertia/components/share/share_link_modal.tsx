import { Modal, Space, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate, isNeverExpiring } from '~/lib/format'
import LinkWithQrCode from '~/components/share/link_with_qr_code'

/** Props of {@link ShareLinkModal}. */
export interface ShareLinkModalProps {
  /** Whether the modal is shown. */
  open: boolean
  /** Called when the visitor closes the modal. */
  onClose: () => void
  /** The share whose link is shown. */
  shareId: string
  /** ISO expiration date; the epoch means "never expires"; omitted hides the line. */
  expiration?: string | null
  /** Optional title; defaults to "Share ready". */
  title?: string
}

/** The public short link of a share: `${general.appUrl}/s/<id>`. */
export function shareLink(appUrl: string, shareId: string): string {
  return `${appUrl.replace(/\/+$/, '')}/s/${encodeURIComponent(shareId)}`
}

/**
 * The link of a share with a copy button, its QR code and when it expires
 * ("This share will never expire." or the date).
 */
export default function ShareLinkModal({ open, onClose, shareId, expiration, title }: ShareLinkModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const appUrl =
    config.string('general.appUrl') || (typeof window !== 'undefined' ? window.location.origin : '')
  const link = shareLink(appUrl, shareId)

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={title ?? t('share_common.linkModal.title')}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        {open && <LinkWithQrCode link={link} label={t('share_common.linkModal.linkLabel')} />}
        {expiration !== undefined && (
          <Typography.Text type="secondary" data-testid="share-expiration">
            {isNeverExpiring(expiration ?? '')
              ? t('share_common.linkModal.neverExpires')
              : t('share_common.linkModal.expiresOn', { date: formatDate(expiration as string, locale) })}
          </Typography.Text>
        )}
      </Space>
    </Modal>
  )
}
