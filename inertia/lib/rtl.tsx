/**
 * Right-to-left helpers (Arabic, ar-EG). antd mirrors its own arrows
 * (pagination, menus, selects) under ConfigProvider `direction="rtl"`; our
 * icons that point along the reading direction (back, sign out, undo,
 * import) are mirrored here. The direction comes from the ConfigProvider,
 * which the server renders too, so the first paint is already mirrored.
 */
import { cloneElement, useContext, type CSSProperties, type ReactElement } from 'react'
import { ConfigProvider } from 'antd'

const MIRRORED: CSSProperties = { transform: 'scaleX(-1)' }

/**
 * An icon that points along the reading direction, mirrored in a
 * right-to-left language. Other props (antd Menu's icon class) go to the icon.
 */
export function DirectionalIcon({
  icon,
  ...props
}: {
  icon: ReactElement<{ style?: CSSProperties }>
  [prop: string]: unknown
}) {
  const { direction } = useContext(ConfigProvider.ConfigContext)
  if (direction !== 'rtl') return Object.keys(props).length ? cloneElement(icon, props) : icon
  return cloneElement(icon, { ...props, style: { ...icon.props.style, ...MIRRORED } })
}
