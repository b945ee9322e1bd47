import type { ColumnProps } from 'antd/es/table'
import { CheckOutlined, CloseOutlined } from '@ant-design/icons'
import { Tag } from 'antd'
import { labelled } from '~/lib/stacked_table'

/** Labels of a yes/no column. */
export interface BooleanLabels {
  yes: string
  no: string
}

/**
 * A yes/no column (green check or grey cross, with the label for screen
 * readers), sortable and filterable in the browser.
 *
 * ```tsx
 * <Table.Column {...booleanColumn<User>('isAdmin', t('admin.users.fields.isAdmin.label'), labels)} />
 * ```
 */
export function booleanColumn<T extends object>(
  dataIndex: keyof T & string,
  title: string,
  labels: BooleanLabels
): ColumnProps<T> {
  return {
    dataIndex,
    title,
    ...labelled(title),
    render: (value: unknown) =>
      value ? (
        <Tag color="green" icon={<CheckOutlined aria-hidden="true" />}>
          {labels.yes}
        </Tag>
      ) : (
        <Tag icon={<CloseOutlined aria-hidden="true" />}>{labels.no}</Tag>
      ),
    sorter: (a, b) => Number(Boolean(a[dataIndex])) - Number(Boolean(b[dataIndex])),
    filters: [
      { text: labels.yes, value: true },
      { text: labels.no, value: false },
    ],
    onFilter: (value, record) => Boolean(record[dataIndex]) === value,
  }
}
