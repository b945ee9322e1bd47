/**
 * antd's Dropdown for the header's click menus (colour scheme, language,
 * user), loaded when first used (Dropdown brings rc-menu,
 * rc-overflow and rc-dropdown, about 20 KB brotli, to every page while a
 * visitor rarely opens a menu). Until then the trigger renders alone, on the
 * server too; pointing at it or focusing it starts the download, and the
 * first click opens the menu as soon as Dropdown is there.
 */
import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type ReactElement,
  type SyntheticEvent,
} from 'react'
import type { DropdownProps } from 'antd'

const loadDropdown = () => import('~/components/shell/antd_dropdown')
const Dropdown = lazy(loadDropdown)

type TriggerProps = {
  onClick?: (event: SyntheticEvent) => void
  onPointerEnter?: (event: SyntheticEvent) => void
  onFocus?: (event: SyntheticEvent) => void
}

/** A click-triggered Dropdown (`trigger` is always `['click']`). */
export default function DeferredDropdown(
  props: Omit<DropdownProps, 'open' | 'trigger'> & { children: ReactElement<TriggerProps> }
) {
  const { children, onOpenChange, ...rest } = props
  const [loaded, setLoaded] = useState(false)
  const [open, setOpen] = useState(false)
  if (!loaded) {
    return cloneElement(children, {
      onPointerEnter: () => void loadDropdown(),
      onFocus: () => void loadDropdown(),
      onClick: () => {
        setLoaded(true)
        setOpen(true)
        onOpenChange?.(true, { source: 'trigger' })
      },
    })
  }
  return (
    <Suspense fallback={children}>
      <Dropdown
        {...rest}
        trigger={['click']}
        open={open}
        onOpenChange={(next, info) => {
          setOpen(next)
          onOpenChange?.(next, info)
        }}
      >
        {children}
      </Dropdown>
    </Suspense>
  )
}
