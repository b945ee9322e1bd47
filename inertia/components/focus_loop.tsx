/**
 * Tab and Shift+Tab inside an antd dialog without its two dead stops. The
 * dialog (rc-dialog) keeps the focus inside with two guards of its own: an
 * empty, zero-sized element after the last control, and the box of its
 * content before the first one. Each took one Tab press with nothing on
 * screen showing where the focus was. Here Tab on the last control goes
 * straight to the first one, and Shift+Tab on the first to the last.
 *
 * ```tsx
 * <Modal modalRender={focusLoop} ...>
 * ```
 */
import type { KeyboardEvent, ReactNode } from 'react'

/** The elements Tab stops at. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]'

/** The controls of `container` that Tab stops at, in order: shown on screen, not taken out with tabindex -1. */
export function tabStops(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0
  )
}

function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
  if (
    event.key !== 'Tab' ||
    event.defaultPrevented ||
    event.altKey ||
    event.ctrlKey ||
    event.metaKey
  )
    return
  const stops = tabStops(event.currentTarget)
  if (stops.length === 0) return
  const active = document.activeElement
  const target = event.shiftKey
    ? active === stops[0]
      ? stops.at(-1)
      : null
    : active === stops.at(-1)
      ? stops[0]
      : null
  if (!target) return
  event.preventDefault()
  target.focus()
}

/** A dialog's content, Tab looping over its controls only (see the file comment); pass as `modalRender`. */
export function focusLoop(node: ReactNode): ReactNode {
  return (
    <div onKeyDown={onKeyDown} style={{ display: 'contents' }}>
      {node}
    </div>
  )
}
