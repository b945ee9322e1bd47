import { Modal, Space, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { formatDate, isNeverExpiring } from '~/lib/format'
import LinkWithQrCode from '~/components/share/link_with_qr_code'
import { focusLoop } from '~/components/focus_loop'

/** Props of {@link ReverseShareLinkModal}. */
export interface ReverseShareLinkModalProps {
  /** The upload link shown; null closes the modal. */
  link: string | null
  /** ISO expiry of the reverse share (the epoch: never); omitted hides the line. */
  expiration?: string
  onClose: () => void
}

/**
 * The upload link of a reverse share, with a copy button and its QR code
 * (the share link modal's parts), what it is for and when it expires.
 */
export default function ReverseShareLinkModal({
  link,
  expiration,
  onClose,
}: ReverseShareLinkModalProps) {
  const { t, locale } = useI18n()
  return (
    <Modal
      open={link !== null}
      onCancel={onClose}
      footer={null}
      title={t('reverse_shares.linkModal.title')}
      destroyOnHidden
      // No dead Tab stops at the dialog's ends (see focus_loop.tsx).
      modalRender={focusLoop}
    >
      {link !== null && (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Typography.Text>{t('reverse_shares.linkModal.help')}</Typography.Text>
          <LinkWithQrCode
            link={link}
            label={t('reverse_shares.linkModal.linkLabel')}
            testId="reverse-share-link"
          />
          {expiration !== undefined && (
            <Typography.Text type="secondary" data-testid="reverse-share-expiration">
              {isNeverExpiring(expiration)
                ? t('reverse_shares.linkModal.neverExpires')
                : t('reverse_shares.linkModal.expiresOn', { date: formatDate(expiration, locale) })}
            </Typography.Text>
          )}
        </Space>
      )}
    </Modal>
  )
}
