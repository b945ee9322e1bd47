import type { ColumnProps } from 'antd/es/table'
import { formatDate, isNeverExpiring } from '~/lib/format'
import { labelled } from '~/lib/stacked_table'

/**
 * A date column ("Jan 5, 2026, 3:04 PM" in the page's language), sorted by
 * time. With `never`, the epoch (the API's "never expires") shows that text.
 */
export function dateColumn<T extends object>(
  dataIndex: keyof T & string,
  title: string,
  locale: string,
  never?: string
): ColumnProps<T> {
  const time = (value: unknown) => {
    if (never && isNeverExpiring(value as string)) return Number.POSITIVE_INFINITY
    return new Date(String(value)).getTime() || 0
  }
  return {
    dataIndex,
    title,
    ...labelled(title),
    render: (value: unknown) =>
      never && isNeverExpiring(value as string)
        ? never
        : value
          ? formatDate(String(value), locale)
          : '',
    sorter: (a, b) => {
      const diff = time(a[dataIndex]) - time(b[dataIndex])
      return Number.isNaN(diff) ? 0 : diff
    },
  }
}
