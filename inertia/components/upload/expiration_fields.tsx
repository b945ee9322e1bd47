import { Checkbox, Flex, Form, InputNumber, Select, type FormInstance } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate } from '~/lib/format'
import {
  TIMESPAN_UNITS,
  addTimespan,
  exceedsMaximum,
  maximumExpiry,
  parseTimespan,
  type Timespan,
  type TimespanUnit,
} from '#api/expiration'

/** The form values the fields own. */
export interface ExpirationValues {
  expirationValue: number
  expirationUnit: TimespanUnit
  never: boolean
}

/**
 * Initial values of the fields from `share.defaultExpiration` (a default of
 * 0 means "never", unless a maximum forbids it).
 */
export function initialExpiration(
  defaultExpiration: string,
  hasMaximum: boolean
): ExpirationValues {
  const span: Timespan = parseTimespan(defaultExpiration) ?? { value: 7, unit: 'day' }
  return {
    expirationValue: span.value === 0 ? 1 : span.value,
    expirationUnit: span.unit,
    never: span.value === 0 && !hasMaximum,
  }
}

/** Props of {@link ExpirationFields}. */
export interface ExpirationFieldsProps {
  /** The form holding `expirationValue`, `expirationUnit` and `never`. */
  form: FormInstance
  /**
   * Catalogue prefix of the texts `expiration`, `expirationValue`,
   * `expirationUnit`, `neverExpires`, `expiresOn` and `neverExpiresInfo`
   * (`upload.modal`, `reverse_shares.createModal`).
   */
  messages: string
}

/**
 * The expiration of a create modal: a number and a unit (minute ... year),
 * or "never" (offered only while `share.maxExpiration` is unlimited), with
 * the resulting date below and the catalogue's message over the maximum
 * ('Expiration exceeds maximum expiration date of {max}.').
 */
export default function ExpirationFields({ form, messages }: ExpirationFieldsProps) {
  const { t, locale } = useI18n()
  const maxExpiration = useConfig().string('share.maxExpiration', '0 days')
  const hasMaximum = maximumExpiry(maxExpiration) !== null
  const never = Form.useWatch('never', form) ?? false
  const expirationValue = Form.useWatch('expirationValue', form) ?? 1
  const expirationUnit = Form.useWatch('expirationUnit', form) ?? 'day'

  const maximumText = () => {
    const maximum = maximumExpiry(maxExpiration)
    return maximum ? formatDate(maximum.toISOString(), locale) : ''
  }

  const expiryInfo = never
    ? t(`${messages}.neverExpiresInfo`)
    : Number.isInteger(expirationValue) && expirationValue > 0
      ? t(`${messages}.expiresOn`, {
          date: formatDate(
            addTimespan(new Date(), { value: expirationValue, unit: expirationUnit }).toISOString(),
            locale
          ),
        })
      : ''

  return (
    <Form.Item label={t(`${messages}.expiration`)} extra={expiryInfo} required>
      <Flex gap={8} wrap align="center">
        <Form.Item
          name="expirationValue"
          noStyle
          dependencies={['never', 'expirationUnit']}
          rules={[
            { required: !never, message: t('validation.required') },
            {
              validator: async () => {
                const values = form.getFieldsValue(['never', 'expirationValue', 'expirationUnit'])
                const span: Timespan | null = values.never
                  ? null
                  : {
                      value: Number(values.expirationValue) || 0,
                      unit: values.expirationUnit ?? 'day',
                    }
                const now = new Date()
                if (exceedsMaximum(span, maximumExpiry(maxExpiration, now), now)) {
                  throw new Error(t('upload.modal.expirationTooLong', { max: maximumText() }))
                }
              },
            },
          ]}
        >
          <InputNumber
            min={1}
            max={999_999}
            precision={0}
            disabled={never}
            aria-label={t(`${messages}.expirationValue`)}
            style={{ width: 120 }}
          />
        </Form.Item>
        <Form.Item name="expirationUnit" noStyle>
          <Select
            disabled={never}
            aria-label={t(`${messages}.expirationUnit`)}
            style={{ width: 140 }}
            options={TIMESPAN_UNITS.map((unit) => ({
              value: unit,
              label: t(`upload.modal.units.${unit}`, { count: Number(expirationValue) || 0 }),
            }))}
          />
        </Form.Item>
        {!hasMaximum && (
          <Form.Item name="never" valuePropName="checked" noStyle>
            <Checkbox>{t(`${messages}.neverExpires`)}</Checkbox>
          </Form.Item>
        )}
      </Flex>
    </Form.Item>
  )
}
