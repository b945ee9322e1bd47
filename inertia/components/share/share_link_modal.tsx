import { useEffect, useState } from 'react'
import { Input, Modal, Space, Typography } from 'antd'
import QRCode from 'qrcode'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate, isNeverExpiring } from '~/lib/format'
import CopyButton from '~/components/share/copy_button'

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
 * The link of a share with a copy button, its QR code (rendered in the
 * browser to a data URL) and when it expires ("This share will never expire."
 * or the date).
 */
export default function ShareLinkModal({ open, onClose, shareId, expiration, title }: ShareLinkModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const appUrl =
    config.string('general.appUrl') || (typeof window !== 'undefined' ? window.location.origin : '')
  const link = shareLink(appUrl, shareId)
  const [qr, setQr] = useState<string | null>(null)

  useEffect(() => {
    if (!open) return
    let cancelled = false
    QRCode.toDataURL(link, { margin: 1, width: 200 })
      .then((url) => {
        if (!cancelled) setQr(url)
      })
      .catch(() => {
        if (!cancelled) setQr(null)
      })
    return () => {
      cancelled = true
    }
  }, [link, open])

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={title ?? t('share_common.linkModal.title')}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space.Compact style={{ width: '100%' }}>
          <Input
            readOnly
            value={link}
            aria-label={t('share_common.linkModal.linkLabel')}
            data-testid="share-link"
            onFocus={(event) => event.target.select()}
          />
          <CopyButton value={link} />
        </Space.Compact>
        {qr && (
          <div style={{ textAlign: 'center' }}>
            <img src={qr} width={200} height={200} alt={t('share_common.linkModal.qrAlt', { link })} />
          </div>
        )}
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
