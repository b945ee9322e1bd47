/**
 * The panel's own CSS, for what inline styles cannot say (media queries,
 * children of antd components). Registered through antd's CSS-in-JS like
 * antd's own styles: one <style> per `name`, with the page's CSP nonce,
 * coloured from the theme's tokens.
 */
import { useContext } from 'react'
import { useStyleRegister, type CSSInterpolation } from '@ant-design/cssinjs'
import { ConfigProvider, theme, type GlobalToken } from 'antd'

/** Phones: below antd's `md` breakpoint (768 px) the panel drops its sider and stacks its columns. */
export const PHONE = '@media (max-width: 767.98px)'

/** Registers `styles` (built from the theme's tokens) once under `name`. */
export function useAdminStyles(
  name: string,
  styles: (token: GlobalToken) => CSSInterpolation
): void {
  const { theme: antdTheme, token } = theme.useToken()
  const { csp } = useContext(ConfigProvider.ConfigContext)
  useStyleRegister(
    { theme: antdTheme, token, path: ['tern-admin', name], nonce: () => csp?.nonce ?? '' },
    () => styles(token)
  )
}
