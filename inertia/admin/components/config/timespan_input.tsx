import { InputNumber, Select, Space } from 'antd'
import { useTranslate } from '~/lib/i18n'
import {
  formatTimespan,
  parseTimespan,
  TIMESPAN_UNITS,
  type Timespan,
  type TimespanUnit,
} from '#api/expiration'

/**
 * A timespan editor for a Form.Item: a whole number and a unit (minutes to
 * years). The form value is the stored text (`"3 months"`). 280 px wide at
 * most; both parts shrink on a narrow screen.
 */
export function TimespanInput(props: {
  id?: string
  value?: string
  onChange?: (text: string) => void
  disabled?: boolean
}) {
  const t = useTranslate()
  const parts: Timespan = parseTimespan(props.value) ?? { value: 0, unit: 'day' }
  return (
    <Space.Compact style={{ display: 'flex', maxWidth: 280 }}>
      <InputNumber
        id={props.id}
        value={parts.value}
        min={0}
        precision={0}
        disabled={props.disabled}
        style={{ flex: '1 1 140px', minWidth: 0 }}
        onChange={(next) =>
          props.onChange?.(
            formatTimespan({ value: Math.max(0, Math.trunc(Number(next ?? 0))), unit: parts.unit })
          )
        }
      />
      <Select<TimespanUnit>
        value={parts.unit}
        disabled={props.disabled}
        aria-label={t('admin.config.editors.unit')}
        style={{ flex: '1 1 140px', minWidth: 110 }}
        options={TIMESPAN_UNITS.map((unit) => ({
          value: unit,
          label: t(`admin.config.units.${unit}s`, { count: parts.value }),
        }))}
        onChange={(unit) => props.onChange?.(formatTimespan({ value: parts.value, unit }))}
      />
    </Space.Compact>
  )
}
