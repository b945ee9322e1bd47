import { useEffect, useRef, useState } from 'react'
import { InputNumber, Select, Space } from 'antd'
import { useTranslate } from '~/lib/i18n'
import {
  FILESIZE_UNITS,
  joinFilesize,
  splitFilesize,
  type FilesizeUnit,
} from '~/admin/lib/config_values'

/**
 * A file size editor for a Form.Item: a number and a unit (B, KB, MB, GB,
 * 1000-based). The form value is a whole number of bytes. 270 px wide at
 * most; the number shrinks on a narrow screen.
 */
export function FilesizeInput(props: {
  id?: string
  value?: number
  onChange?: (bytes: number) => void
  min?: number
  max?: number
  disabled?: boolean
}) {
  const t = useTranslate()
  const bytes = Number(props.value ?? 0)
  const [unit, setUnit] = useState<FilesizeUnit>(() => splitFilesize(bytes).unit)
  const emitted = useRef<number | null>(null)

  // A value set from outside (load, reset) picks its natural unit again;
  // the editor's own changes keep the unit being typed in.
  useEffect(() => {
    if (bytes !== emitted.current) setUnit(splitFilesize(bytes).unit)
  }, [bytes])

  const emit = (next: number) => {
    emitted.current = next
    props.onChange?.(next)
  }
  const amount = bytes / factorOf(unit)
  return (
    <Space.Compact style={{ display: 'flex', maxWidth: 270 }}>
      <InputNumber
        id={props.id}
        value={amount}
        min={props.min === undefined ? 0 : props.min / factorOf(unit)}
        max={props.max === undefined ? undefined : props.max / factorOf(unit)}
        disabled={props.disabled}
        style={{ flex: '1 1 180px', minWidth: 0 }}
        onChange={(next) => emit(joinFilesize({ value: Number(next ?? 0), unit }))}
      />
      <Select<FilesizeUnit>
        value={unit}
        disabled={props.disabled}
        aria-label={t('admin.config.editors.unit')}
        style={{ flex: '0 0 90px' }}
        options={FILESIZE_UNITS.map((entry) => ({ value: entry.unit, label: entry.unit }))}
        onChange={(next) => {
          setUnit(next)
          emit(joinFilesize({ value: amount, unit: next }))
        }}
      />
    </Space.Compact>
  )
}

function factorOf(unit: FilesizeUnit): number {
  return FILESIZE_UNITS.find((entry) => entry.unit === unit)?.factor ?? 1
}
