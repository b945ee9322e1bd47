import { useEffect, useMemo, useState } from 'react'
import { Alert, Button, Flex, Form, InputNumber, Modal, Select, Switch } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatBytes } from '~/lib/format'
import { expirationInput, maximumExpiry, type ExpirationUnit } from '~/components/upload/expiration'
import ExpirationFields, { initialExpiration } from '~/components/upload/expiration_fields'
import { SIZE_UNITS, sizeInBytes, splitSize, type SizeUnit } from '~/components/reverse_shares/size_input'
import type { CreateReverseShareInput } from '#api/reverse_share'

/** The form's values. */
interface CreateReverseShareValues {
  expirationValue: number
  expirationUnit: ExpirationUnit
  never: boolean
  sizeValue: number
  sizeUnit: SizeUnit
  maxUseCount?: number | null
  sendEmailNotification: boolean
  simplified: boolean
  publicAccess: boolean
}

/** A refusal of `onSubmit` that belongs to one field. */
export class ReverseShareFieldError extends Error {
  constructor(
    readonly field: 'expirationValue' | 'sizeValue',
    message: string
  ) {
    super(message)
  }
}

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
export default function CreateReverseShareModal({ open, onCancel, onSubmit }: CreateReverseShareModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const [form] = Form.useForm<CreateReverseShareValues>()
  const [submitting, setSubmitting] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)

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
  }, [defaultExpiration, hasMaximum, maxSize])

  useEffect(() => {
    if (!open) return
    setFormError(null)
    form.resetFields()
  }, [open, form])

  const submit = async (values: CreateReverseShareValues) => {
    setSubmitting(true)
    setFormError(null)
    try {
      await onSubmit({
        shareExpiration: expirationInput(values.never, { value: values.expirationValue, unit: values.expirationUnit }),
        maxShareSize: String(sizeInBytes({ value: values.sizeValue, unit: values.sizeUnit })),
        maxUseCount: values.maxUseCount || null,
        sendEmailNotification: mailEnabled && values.sendEmailNotification,
        simplified: values.simplified,
        publicAccess: values.publicAccess,
      })
    } catch (error) {
      if (error instanceof ReverseShareFieldError) form.setFields([{ name: error.field, errors: [error.message] }])
      else setFormError(error instanceof Error ? error.message : String(error))
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Modal
      open={open}
      title={t('reverse_shares.createModal.title')}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('reverse_shares.cancel')}
        </Button>,
        <Button key="submit" type="primary" loading={submitting} onClick={() => form.submit()}>
          {t('reverse_shares.createModal.submit')}
        </Button>,
      ]}
    >
      <Form<CreateReverseShareValues>
        form={form}
        name="createReverseShare"
        layout="vertical"
        initialValues={initialValues}
        onFinish={(values) => void submit(values)}
        requiredMark={false}
      >
        {formError && <Alert type="error" showIcon role="alert" style={{ marginBottom: 16 }} message={formError} />}

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
                    if (Number.isNaN(bytes) || bytes < 1) throw new Error(t('reverse_shares.createModal.maxShareSizeInvalid'))
                    if (bytes > maxSize) {
                      throw new Error(t('reverse_shares.createModal.maxShareSizeTooLarge', { max: maxSizeText }))
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

        {mailEnabled && (
          <Form.Item
            name="sendEmailNotification"
            valuePropName="checked"
            label={t('reverse_shares.createModal.sendEmailNotification')}
            extra={t('reverse_shares.createModal.sendEmailNotificationHelp')}
          >
            <Switch />
          </Form.Item>
        )}
        <Form.Item
          name="simplified"
          valuePropName="checked"
          label={t('reverse_shares.createModal.simplified')}
          extra={t('reverse_shares.createModal.simplifiedHelp')}
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="publicAccess"
          valuePropName="checked"
          label={t('reverse_shares.createModal.publicAccess')}
          extra={t('reverse_shares.createModal.publicAccessHelp')}
          style={{ marginBottom: 0 }}
        >
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  )
}
