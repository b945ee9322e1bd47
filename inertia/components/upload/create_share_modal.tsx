import { useEffect, useMemo, useState } from 'react'
import { Alert, Button, Checkbox, Collapse, Flex, Form, Input, InputNumber, Modal, Select, Space } from 'antd'
import { ReloadOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate } from '~/lib/format'
import {
  SHARE_ID_PATTERN,
  isShareIdAvailable,
  randomShareId,
  type CreateShareInput,
} from '~/lib/upload'
import {
  EXPIRATION_UNITS,
  addTimespan,
  exceedsMaximum,
  expirationInput,
  maximumExpiry,
  parseTimespan,
  type ExpirationUnit,
} from '~/components/upload/expiration'

/** The form's values. */
interface CreateShareValues {
  id: string
  expirationValue: number
  expirationUnit: ExpirationUnit
  never: boolean
  name?: string
  description?: string
  recipients?: string[]
  password?: string
  maxViews?: number | null
}

/** Props of {@link CreateShareModal}. */
export interface CreateShareModalProps {
  open: boolean
  onCancel: () => void
  /**
   * Creates the share and uploads the files. A rejection with
   * `{ field: 'id', message }` shows the message at the link field; any other
   * rejection's message is shown above the form.
   */
  onSubmit: (input: CreateShareInput) => Promise<void>
  /** Shows the warning for visitors (no deleting, no visitor count). */
  isVisitor: boolean
}

/** A refusal of `onSubmit` that belongs to one field. */
export class FieldError extends Error {
  constructor(
    readonly field: 'id',
    message: string
  ) {
    super(message)
  }
}

const MAX_ID_LENGTH = 50
const MIN_ID_LENGTH = 3
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The create-share modal of the upload page: link (random id of
 * `share.shareIdLength` characters, live availability check), expiration
 * (number and unit or never, capped by `share.maxExpiration`), name,
 * description, e-mail recipients, password and maximum views.
 */
export default function CreateShareModal({ open, onCancel, onSubmit, isVisitor }: CreateShareModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const [form] = Form.useForm<CreateShareValues>()
  const [submitting, setSubmitting] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)

  const idLength = config.number('share.shareIdLength', 8)
  const appUrl = config.string('general.appUrl')
  const maxExpiration = config.string('share.maxExpiration', '0 days')
  const defaultSpan = parseTimespan(config.string('share.defaultExpiration', '7 days')) ?? { value: 7, unit: 'day' as const }
  const hasMaximum = maximumExpiry(maxExpiration) !== null

  const initialValues = useMemo<Partial<CreateShareValues>>(
    () => ({
      id: '',
      expirationValue: defaultSpan.value === 0 ? 1 : defaultSpan.value,
      expirationUnit: defaultSpan.unit,
      // A default of 0 means "never" (when no maximum forbids it).
      never: defaultSpan.value === 0 && !hasMaximum,
      recipients: [],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [defaultSpan.value, defaultSpan.unit, hasMaximum]
  )

  // A fresh random id every time the modal opens (generated in the browser only).
  useEffect(() => {
    if (!open) return
    setFormError(null)
    form.resetFields()
    form.setFieldsValue({ id: randomShareId(idLength) })
  }, [open, form, idLength])

  const never = Form.useWatch('never', form) ?? false
  const expirationValue = Form.useWatch('expirationValue', form) ?? 1
  const expirationUnit = Form.useWatch('expirationUnit', form) ?? 'day'

  const maximumText = () => {
    const maximum = maximumExpiry(maxExpiration)
    return maximum ? formatDate(maximum.toISOString(), locale) : ''
  }

  const expiryInfo = never
    ? t('upload.modal.neverExpiresInfo')
    : Number.isInteger(expirationValue) && expirationValue > 0
      ? t('upload.modal.expiresOn', {
          date: formatDate(addTimespan(new Date(), { value: expirationValue, unit: expirationUnit }).toISOString(), locale),
        })
      : ''

  const submit = async (values: CreateShareValues) => {
    setSubmitting(true)
    setFormError(null)
    try {
      await onSubmit({
        id: values.id.trim(),
        name: values.name?.trim() || undefined,
        description: values.description?.trim() || undefined,
        expiration: expirationInput(values.never, { value: values.expirationValue, unit: values.expirationUnit }),
        recipients: values.recipients ?? [],
        security: {
          password: values.password || undefined,
          maxViews: values.maxViews || undefined,
        },
      })
    } catch (error) {
      if (error instanceof FieldError) form.setFields([{ name: error.field, errors: [error.message] }])
      else setFormError(error instanceof Error ? error.message : String(error))
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Modal
      open={open}
      title={t('upload.modal.title')}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('upload.modal.cancel')}
        </Button>,
        <Button key="submit" type="primary" loading={submitting} onClick={() => form.submit()}>
          {t('upload.modal.submit')}
        </Button>,
      ]}
    >
      <Form<CreateShareValues>
        form={form}
        name="createShare"
        layout="vertical"
        initialValues={initialValues}
        onFinish={(values) => void submit(values)}
        requiredMark={false}
      >
        {isVisitor && (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('upload.modal.visitorWarning')} />
        )}
        {formError && (
          <Alert type="error" showIcon role="alert" style={{ marginBottom: 16 }} message={formError} />
        )}
        <Form.Item label={t('upload.modal.link')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Space.Addon>{`${appUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '')}/s/`}</Space.Addon>
            <Form.Item
              name="id"
              noStyle={false}
              style={{ flex: 1, marginBottom: 0 }}
              validateDebounce={300}
              hasFeedback
              validateFirst
              rules={[
                { required: true, whitespace: true, message: t('validation.required') },
                { min: MIN_ID_LENGTH, message: t('validation.minLength', { length: MIN_ID_LENGTH }) },
                { max: MAX_ID_LENGTH, message: t('validation.maxLength', { length: MAX_ID_LENGTH }) },
                { pattern: SHARE_ID_PATTERN, message: t('upload.modal.linkPattern') },
                {
                  validator: async (_rule, value: string) => {
                    if (!value) return
                    let available = true
                    try {
                      available = await isShareIdAvailable({ fetch: (...args) => fetch(...args) }, value.trim())
                    } catch {
                      return // the server decides on submit
                    }
                    if (!available) throw new Error(t('upload.modal.linkInUse'))
                  },
                },
              ]}
            >
              <Input
                aria-label={t('upload.modal.link')}
                maxLength={MAX_ID_LENGTH}
                data-testid="share-id-input"
              />
            </Form.Item>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('upload.modal.generate')}
              title={t('upload.modal.generate')}
              onClick={() => {
                form.setFieldsValue({ id: randomShareId(idLength) })
                void form.validateFields(['id'])
              }}
            />
          </Space.Compact>
        </Form.Item>

        <Form.Item label={t('upload.modal.expiration')} extra={expiryInfo} required>
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
                    const span = { value: Number(values.expirationValue) || 0, unit: values.expirationUnit ?? 'day' }
                    const now = new Date()
                    if (exceedsMaximum(Boolean(values.never), span, maximumExpiry(maxExpiration, now), now)) {
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
                aria-label={t('upload.modal.expirationValue')}
                style={{ width: 120 }}
              />
            </Form.Item>
            <Form.Item name="expirationUnit" noStyle>
              <Select
                disabled={never}
                aria-label={t('upload.modal.expirationUnit')}
                style={{ width: 140 }}
                options={EXPIRATION_UNITS.map((unit) => ({
                  value: unit,
                  label: t(`upload.modal.units.${unit}.${expirationValue === 1 ? 'one' : 'other'}`),
                }))}
              />
            </Form.Item>
            {!hasMaximum && (
              <Form.Item name="never" valuePropName="checked" noStyle>
                <Checkbox>{t('upload.modal.neverExpires')}</Checkbox>
              </Form.Item>
            )}
          </Flex>
        </Form.Item>

        <Form.Item
          name="name"
          label={t('upload.modal.name')}
          rules={[
            { min: 3, message: t('validation.minLength', { length: 3 }) },
            { max: 30, message: t('validation.maxLength', { length: 30 }) },
          ]}
        >
          <Input placeholder={t('upload.modal.namePlaceholder')} maxLength={30} />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('upload.modal.description')}
          rules={[{ max: 512, message: t('validation.maxLength', { length: 512 }) }]}
        >
          <Input.TextArea placeholder={t('upload.modal.descriptionPlaceholder')} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={512} />
        </Form.Item>
        <Form.Item
          name="recipients"
          label={t('upload.modal.recipients')}
          extra={t('upload.modal.recipientsHelp')}
          rules={[
            {
              validator: async (_rule, value: string[] | undefined) => {
                if ((value ?? []).some((email) => !EMAIL.test(email))) throw new Error(t('upload.modal.invalidEmail'))
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', ' ', ';']}
            placeholder={t('upload.modal.recipientsPlaceholder')}
          />
        </Form.Item>

        <Collapse
          size="small"
          items={[
            {
              key: 'security',
              label: t('upload.modal.security'),
              forceRender: true,
              children: (
                <>
                  <Form.Item
                    name="password"
                    label={t('upload.modal.password')}
                    rules={[
                      { min: 3, message: t('validation.minLength', { length: 3 }) },
                      { max: 30, message: t('validation.maxLength', { length: 30 }) },
                    ]}
                  >
                    <Input.Password placeholder={t('upload.modal.passwordPlaceholder')} autoComplete="new-password" />
                  </Form.Item>
                  <Form.Item name="maxViews" label={t('upload.modal.maxViews')} style={{ marginBottom: 0 }}>
                    <InputNumber min={1} precision={0} placeholder={t('upload.modal.maxViewsPlaceholder')} style={{ width: '100%' }} />
                  </Form.Item>
                </>
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  )
}
