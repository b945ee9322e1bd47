import type { ColumnProps } from 'antd/es/table'
import { formatBytes } from '~/lib/format'
import { labelled } from '~/lib/stacked_table'

/** A size in bytes shown as "1.5 MB" (1000-based), sorted by bytes. */
export function sizeColumn<T extends object>(
  dataIndex: keyof T & string,
  title: string,
  locale: string
): ColumnProps<T> {
  return {
    dataIndex,
    title,
    ...labelled(title),
    align: 'end',
    render: (value: unknown) => formatBytes(Number(value) || 0, locale),
    sorter: (a, b) => Number(a[dataIndex] ?? 0) - Number(b[dataIndex] ?? 0),
  }
}
