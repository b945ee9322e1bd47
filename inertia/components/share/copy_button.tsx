import { useState } from 'react'
import { App, Button } from 'antd'
import { CheckOutlined, CopyOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
// antd's Tooltip, loaded on first use: every visitor's share page shows this button, few point at it.
import Tooltip from '~/lib/deferred_tooltip'

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** The text to copy. */
  value: string
  /** Accessible name and tooltip; defaults to "Copy to clipboard". */
  label?: string
}

/**
 * Copies `text` to the clipboard: the async Clipboard API when the page is
 * allowed to use it, else a hidden textarea and `document.execCommand('copy')`
 * (plain-HTTP installs). Resolves to false when both fail.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // fall through to the legacy way
  }
  try {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.appendChild(area)
    area.select()
    const done = document.execCommand('copy')
    document.body.removeChild(area)
    return done
  } catch {
    return false
  }
}

/**
 * An icon button copying `value` to the clipboard, with a translated tooltip
 * and a notification ("Your link was copied to the clipboard" or, when the
 * browser refuses, a message asking to copy it by hand).
 */
export default function CopyButton({ value, label }: CopyButtonProps) {
  const t = useTranslate()
  const { message } = App.useApp()
  const [copied, setCopied] = useState(false)
  const name = label ?? t('share_common.copy.label')

  const onClick = async () => {
    const done = await copyToClipboard(value)
    if (done) {
      setCopied(true)
      message.success(t('share_common.copy.copied'))
      window.setTimeout(() => setCopied(false), 2000)
    } else {
      message.error(t('share_common.copy.failed'))
    }
  }

  return (
    <Tooltip title={copied ? t('share_common.copy.copiedShort') : name}>
      <Button
        aria-label={name}
        icon={copied ? <CheckOutlined /> : <CopyOutlined />}
        onClick={() => void onClick()}
        data-testid="copy-button"
      />
    </Tooltip>
  )
}
