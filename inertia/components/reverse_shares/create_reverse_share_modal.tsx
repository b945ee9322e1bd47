import { useMemo } from 'react'
import { Flex, Form, InputNumber, Select, Switch } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatBytes } from '~/lib/format'
import { expirationInput, maximumExpiry, type TimespanUnit } from '#api/expiration'
import ExpirationFields, { initialExpiration } from '~/components/upload/expiration_fields'
import {
  SIZE_UNITS,
  sizeInBytes,
  splitSize,
  type SizeUnit,
} from '~/components/reverse_shares/size_input'
import FormModal, { FormFieldError } from '~/components/form_modal'
import type { CreateReverseShareInput } from '#api/reverse_share'

/** The form's values. */
interface CreateReverseShareValues {
  expirationValue: number
  expirationUnit: TimespanUnit
  never: boolean
  sizeValue: number
  sizeUnit: SizeUnit
  maxUseCount?: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
}

/** A refusal of `onSubmit` that belongs to one field. */
export class ReverseShareFieldError extends FormFieldError<'expirationValue' | 'sizeValue'> {}

/** Props of {@link CreateReverseShareModal}. */
export interface CreateReverseShareModalProps {
  open: boolean
  onCancel: () => void
  /**
   * Creates the reverse share. A `ReverseShareFieldError` is shown at its
   * field; any other rejection's message above the form.
   */
  onSubmit: (input: CreateReverseShareInput) => Promise<void>
}

/**
 * The create-reverse-share modal: expiration (number and unit or never,
 * capped by `share.maxExpiration`), max share size (number and unit, at most
 * `share.maxSize`), max uses (empty: no limit), the e-mail notification
 * (only while SMTP is enabled), simplified mode and public access.
 */
export default function CreateReverseShareModal({
  open,
  onCancel,
  onSubmit,
}: CreateReverseShareModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const [form] = Form.useForm<CreateReverseShareValues>()

  const maxSize = config.number('share.maxSize', 1_000_000_000)
  const mailEnabled = config.boolean('smtp.enabled')
  const defaultExpiration = config.string('share.defaultExpiration', '7 days')
  const hasMaximum = maximumExpiry(config.string('share.maxExpiration', '0 days')) !== null
  const maxSizeText = formatBytes(maxSize, locale)

  const initialValues = useMemo<CreateReverseShareValues>(() => {
    const size = splitSize(maxSize)
    return {
      ...initialExpiration(defaultExpiration, hasMaximum),
      sizeValue: size.value,
      sizeUnit: size.unit,
      maxUseCount: null,
      sendEmailNotification: false,
      simplified: false,
      publicAccess: true,
    }
    // eslint-disable-next-line react-hooks/preserve-manual-memoization -- the app does not use the React Compiler; these are the deps
  }, [defaultExpiration, hasMaximum, maxSize])

  const submit = (values: CreateReverseShareValues) =>
    onSubmit({
      shareExpiration: expirationInput(
        values.never ? null : { value: values.expirationValue, unit: values.expirationUnit }
      ),
      maxShareSize: String(sizeInBytes({ value: values.sizeValue, unit: values.sizeUnit })),
      maxUseCount: values.maxUseCount || null,
      sendEmailNotification: mailEnabled && values.sendEmailNotification,
      simplified: values.simplified,
      publicAccess: values.publicAccess,
    })

  return (
    <FormModal<CreateReverseShareValues>
      open={open}
      onCancel={onCancel}
      title={t('reverse_shares.createModal.title')}
      cancelText={t('reverse_shares.cancel')}
      submitText={t('reverse_shares.createModal.submit')}
      name="createReverseShare"
      form={form}
      initialValues={initialValues}
      onSubmit={submit}
    >
      <ExpirationFields form={form} messages="reverse_shares.createModal" />

      <Form.Item
        label={t('reverse_shares.createModal.maxShareSize')}
        extra={t('reverse_shares.createModal.maxShareSizeHelp', { max: maxSizeText })}
        required
      >
        <Flex gap={8} wrap align="center">
          <Form.Item
            name="sizeValue"
            noStyle
            dependencies={['sizeUnit']}
            rules={[
              { required: true, message: t('validation.required') },
              {
                validator: async () => {
                  const values = form.getFieldsValue(['sizeValue', 'sizeUnit'])
                  const bytes = sizeInBytes({ value: values.sizeValue, unit: values.sizeUnit })
                  if (Number.isNaN(bytes) || bytes < 1)
                    throw new Error(t('reverse_shares.createModal.maxShareSizeInvalid'))
                  if (bytes > maxSize) {
                    throw new Error(
                      t('reverse_shares.createModal.maxShareSizeTooLarge', { max: maxSizeText })
                    )
                  }
                },
              },
            ]}
          >
            <InputNumber
              min={0}
              aria-label={t('reverse_shares.createModal.maxShareSize')}
              style={{ width: 160 }}
            />
          </Form.Item>
          <Form.Item name="sizeUnit" noStyle>
            <Select
              aria-label={t('reverse_shares.createModal.maxShareSizeUnit')}
              style={{ width: 100 }}
              options={SIZE_UNITS.map(({ unit }) => ({ value: unit, label: unit }))}
            />
          </Form.Item>
        </Flex>
      </Form.Item>

      <Form.Item
        name="maxUseCount"
        label={t('reverse_shares.createModal.maxUseCount')}
        extra={t('reverse_shares.createModal.maxUseCountHelp')}
      >
        <InputNumber
          min={1}
          max={1_000_000_000}
          precision={0}
          placeholder={t('reverse_shares.createModal.maxUseCountPlaceholder')}
          style={{ width: '100%' }}
        />
      </Form.Item>

      {mailEnabled && <SwitchItem name="sendEmailNotification" />}
      <SwitchItem name="simplified" />
      <SwitchItem name="publicAccess" last />
    </FormModal>
  )
}

/** One on/off option of the form, labelled and explained by `reverse_shares.createModal.<name>(Help)`. */
function SwitchItem({
  name,
  last,
}: {
  name: 'sendEmailNotification' | 'simplified' | 'publicAccess'
  last?: boolean
}) {
  const { t } = useI18n()
  return (
    <Form.Item
      name={name}
      valuePropName="checked"
      label={t(`reverse_shares.createModal.${name}`)}
      extra={t(`reverse_shares.createModal.${name}Help`)}
      style={last ? { marginBottom: 0 } : undefined}
    >
      <Switch />
    </Form.Item>
  )
}
