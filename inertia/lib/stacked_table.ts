/**
 * antd tables that become a list of labelled blocks on a phone:
 * below `md` (768 px) each row is a block with one line per cell,
 * the column's name before the value, so a row is read whole and its action
 * buttons are on screen without swiping a table sideways. The header row
 * stays as a bar of the sortable and filterable columns' controls (the other
 * header cells are hidden: their names are written in the cells; with no
 * such column the header row is hidden).
 *
 * A CSS media query registered through antd's CSS-in-JS (with the page's
 * CSP nonce, coloured from the theme's tokens), not a JS breakpoint: a
 * server-rendered page's first paint is already right.
 *
 * ```tsx
 * const stacked = useStackedTable()
 * <Table className={stacked} ...>
 *   <Table.Column title={t('name')} {...labelled(t('name'))} />
 * ```
 */
import { useContext, type HTMLAttributes } from 'react'
import { useStyleRegister } from '@ant-design/cssinjs'
import { ConfigProvider, theme } from 'antd'

/** The class of a table that stacks on phones. */
export const STACKED_TABLE_CLASS = 'tern-stacked-table'

/** Phones: below antd's `md` breakpoint. */
const PHONE = '@media (max-width: 767.98px)'

/**
 * `onCell` of a column whose cells show `label` before their value on a
 * phone. Columns without it (actions) show their content alone.
 */
export function labelled(label: string): { onCell: () => HTMLAttributes<HTMLElement> } {
  return { onCell: () => ({ 'data-label': label }) as HTMLAttributes<HTMLElement> }
}

/** Registers the stacking styles; returns the class to give the antd Table. */
export function useStackedTable(): string {
  const { theme: antdTheme, token } = theme.useToken()
  const { csp } = useContext(ConfigProvider.ConfigContext)
  useStyleRegister(
    { theme: antdTheme, token, path: ['tern-stacked-table'], nonce: () => csp?.nonce ?? '' },
    () => {
      const root = `.${STACKED_TABLE_CLASS}.ant-table-wrapper`
      return {
        [PHONE]: {
          [`${root} table`]: {
            display: 'block',
            width: '100% !important',
            minWidth: '0 !important',
            tableLayout: 'auto',
          },
          [`${root} colgroup, ${root} .ant-table-tbody > tr.ant-table-measure-row`]: {
            display: 'none',
          },
          [`${root} thead, ${root} tbody`]: { display: 'block' },
          // The header: a wrapping bar of the sort and filter controls, if there are any.
          [`${root} .ant-table-thead > tr`]: { display: 'none' },
          [`${root} .ant-table-thead > tr:has(> th.ant-table-column-has-sorters, > th .ant-table-filter-column)`]:
            {
              display: 'flex',
              flexWrap: 'wrap',
              gap: token.marginXXS,
              padding: token.paddingXS,
              background: token.colorFillAlter,
              borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorSplit}`,
            },
          [`${root} .ant-table-thead > tr > th`]: {
            display: 'none',
            padding: `${token.paddingXXS}px ${token.paddingXS}px`,
            border: 'none',
            background: 'transparent',
            whiteSpace: 'nowrap',
          },
          [`${root} .ant-table-thead > tr > th.ant-table-column-has-sorters, ${root} .ant-table-thead > tr > th:has(.ant-table-filter-column)`]:
            {
              display: 'block',
            },
          [`${root} .ant-table-thead > tr > th::before`]: { display: 'none' },
          // A row: a block of lines.
          [`${root} .ant-table-tbody > tr.ant-table-row`]: {
            display: 'block',
            padding: `${token.paddingXS}px 0`,
            borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorSplit}`,
          },
          [`${root} .ant-table-tbody > tr.ant-table-placeholder`]: { display: 'block' },
          [`${root} .ant-table-tbody > tr.ant-table-row > td`]: {
            display: 'flex',
            alignItems: 'baseline',
            gap: token.marginSM,
            padding: `${token.paddingXXS}px ${token.padding}px`,
            border: 'none',
            textAlign: 'start !important' as 'start', // over the inline `align` of a column
            overflowWrap: 'anywhere',
            whiteSpace: 'normal',
          },
          [`${root} .ant-table-tbody > tr.ant-table-row > td > *`]: { minWidth: 0 },
          [`${root} .ant-table-tbody > tr.ant-table-row > td[data-label]::before`]: {
            content: 'attr(data-label)',
            flex: '0 0 35%',
            color: token.colorTextSecondary,
            overflowWrap: 'anywhere',
          },
          [`${root} .ant-table-tbody > tr.ant-table-placeholder > td`]: { display: 'block' },
        },
      }
    }
  )
  return STACKED_TABLE_CLASS
}
