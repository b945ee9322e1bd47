/**
 * What the panel's list pages (users, shares, deliveries, webhook
 * deliveries) share on a phone: their table stacks into
 * labelled blocks (~/lib/stacked_table), and Refine's page header keeps its
 * title and buttons on one line, centred, wrapping the buttons under the
 * title when both do not fit (the title sat below the buttons' line: the
 * browser's top margin of its <h4>). Registered through antd's CSS-in-JS with the page's CSP nonce.
 */
import { useContext } from 'react'
import { useStyleRegister } from '@ant-design/cssinjs'
import { ConfigProvider, theme } from 'antd'
import { useStackedTable } from '~/lib/stacked_table'

/** The class of the list pages' Refine `<List>` wrapper: the header styles apply inside it only. */
const LIST_CLASS = 'tern-admin-list'

/**
 * Registers the styles; returns the props of the page's Refine `<List>`
 * wrapper and the class of its table.
 *
 * ```tsx
 * const list = useListPage()
 * <List wrapperProps={list.wrapperProps}><Table className={list.table} /></List>
 * ```
 */
export function useListPage(): { wrapperProps: { className: string }; table: string } {
  const { theme: antdTheme, token } = theme.useToken()
  const { csp } = useContext(ConfigProvider.ConfigContext)
  useStyleRegister(
    { theme: antdTheme, token, path: ['tern-admin-list-page'], nonce: () => csp?.nonce ?? '' },
    () => ({
      [`.${LIST_CLASS} .ant-page-header .ant-page-header-heading`]: {
        alignItems: 'center',
        columnGap: token.marginSM,
      },
      [`.${LIST_CLASS} .ant-page-header .ant-page-header-heading-extra`]: {
        display: 'flex',
        minWidth: 0,
      },
      // The browser's default top margin of <h4>/<h5> (antd resets only the bottom one) pushed the title down.
      [`.${LIST_CLASS} .ant-page-header .refine-pageHeader-title, .${LIST_CLASS} .ant-page-header .refine-pageHeader-subTitle`]:
        { marginTop: 0 },
    })
  )
  return { wrapperProps: { className: LIST_CLASS }, table: useStackedTable() }
}
