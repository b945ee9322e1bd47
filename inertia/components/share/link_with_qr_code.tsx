import { useEffect, useState } from 'react'
import { Input, Space } from 'antd'
import QRCode from 'qrcode'
import { useTranslate } from '~/lib/i18n'
import CopyButton from '~/components/share/copy_button'

/** Props of {@link LinkWithQrCode}. */
export interface LinkWithQrCodeProps {
  /** The link shown, copied and encoded. */
  link: string
  /** Accessible name of the read-only link field. */
  label: string
  /** `data-testid` of the link field. */
  testId?: string
}

/**
 * A link in a read-only field with a copy button, and its QR code (rendered
 * in the browser to a data URL). Used by the share link modal and the
 * reverse-share link modal.
 */
export default function LinkWithQrCode({
  link,
  label,
  testId = 'share-link',
}: LinkWithQrCodeProps) {
  const t = useTranslate()
  const [qr, setQr] = useState<string | null>(null)

  useEffect(() => {
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
  }, [link])

  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          readOnly
          value={link}
          aria-label={label}
          data-testid={testId}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton value={link} />
      </Space.Compact>
      {qr && (
        <div style={{ textAlign: 'center' }}>
          <img
            src={qr}
            width={200}
            height={200}
            alt={t('share_common.linkModal.qrAlt', { link })}
          />
        </div>
      )}
    </>
  )
}
