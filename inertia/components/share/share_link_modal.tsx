import { useLayoutEffect, useRef } from 'react'
import { Button, Modal, Space, Typography } from 'antd'
import { ExportOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate, isNeverExpiring } from '~/lib/format'
import LinkWithQrCode from '~/components/share/link_with_qr_code'
import { focusLoop } from '~/components/focus_loop'

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

/** The share page of `shareId`, on this server (opened by the dialog's Open button). */
export function sharePagePath(shareId: string): string {
  return `/share/${encodeURIComponent(shareId)}`
}

/**
 * The link of a share with a copy button, its QR code and when it expires
 * ("This share will never expire." or the date); Open (the share page in a
 * new tab) and Done. Done has the focus, so Esc and Enter work right away;
 * Esc also closes it while the focus is still outside (e.g. given back to
 * the page by the create dialog that closed just before).
 */
export default function ShareLinkModal({
  open,
  onClose,
  shareId,
  expiration,
  title,
}: ShareLinkModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const appUrl =
    config.string('general.appUrl') || (typeof window !== 'undefined' ? window.location.origin : '')
  const link = shareLink(appUrl, shareId)

  const done = useRef<HTMLButtonElement>(null)

  // Captured before any dialog sees it: a dialog closing just before (the create dialog) must not swallow it.
  // A layout effect: listening from the frame the dialog is first painted in (an effect could come later).
  useLayoutEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.isComposing) onClose()
    }
    document.addEventListener('keydown', onKeyDown, true)
    return () => document.removeEventListener('keydown', onKeyDown, true)
  }, [open, onClose])

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={[
        <Button
          key="open"
          icon={<ExportOutlined aria-hidden />}
          href={sharePagePath(shareId)}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('share_common.linkModal.open')}
        </Button>,
        <Button key="done" ref={done} type="primary" autoFocus onClick={onClose}>
          {t('share_common.linkModal.done')}
        </Button>,
      ]}
      title={title ?? t('share_common.linkModal.title')}
      // Once shown (and after the dialog closing before it gave the focus back to the page): Done.
      afterOpenChange={(visible) => visible && done.current?.focus()}
      destroyOnHidden
      // No dead Tab stops at the dialog's ends (see focus_loop.tsx).
      modalRender={focusLoop}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        {open && <LinkWithQrCode link={link} label={t('share_common.linkModal.linkLabel')} />}
        {expiration !== undefined && (
          <Typography.Text type="secondary" data-testid="share-expiration">
            {isNeverExpiring(expiration ?? '')
              ? t('share_common.linkModal.neverExpires')
              : t('share_common.linkModal.expiresOn', {
                  date: formatDate(expiration as string, locale),
                })}
          </Typography.Text>
        )}
      </Space>
    </Modal>
  )
}
