import type { ReactNode } from 'react'
import { theme } from 'antd'
import LinkButton from '~/components/link_button'
import type { NavItem } from '~/components/shell/use_nav_items'

/**
 * A header link rendered as a text button. Inertia navigation on a plain
 * click, a normal link for new tabs and for external targets. The current
 * page is marked with `aria-current="page"`.
 */
export default function NavButton(props: {
  item: NavItem
  active: boolean
  block?: boolean
  icon?: ReactNode
  onNavigate?: () => void
}) {
  const { token } = theme.useToken()
  const { item, active } = props

  return (
    <LinkButton
      type="text"
      href={item.href}
      external={item.external}
      icon={props.icon}
      block={props.block}
      onClick={() => props.onNavigate?.()}
      aria-current={active ? 'page' : undefined}
      style={{
        color: active ? token.colorPrimary : undefined,
        fontWeight: active ? 600 : undefined,
        justifyContent: props.block ? 'flex-start' : undefined,
      }}
    >
      {item.label}
    </LinkButton>
  )
}
