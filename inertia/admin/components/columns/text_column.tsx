import type { ColumnProps } from 'antd/es/table'
import { labelled } from '~/lib/stacked_table'

/**
 * A text column sorted in the browser (locale-aware), with an optional
 * getter for nested values (`creator.username`) and a placeholder for
 * empty values.
 */
export function textColumn<T extends object>(
  key: string,
  title: string,
  options: { get?: (record: T) => string | null | undefined; empty?: string } = {}
): ColumnProps<T> {
  const get =
    options.get ??
    ((record: T) => (record as Record<string, unknown>)[key] as string | null | undefined)
  return {
    dataIndex: key,
    title,
    ...labelled(title),
    render: (_: unknown, record: T) => get(record) || options.empty || '',
    sorter: (a, b) => String(get(a) ?? '').localeCompare(String(get(b) ?? '')),
  }
}
