import { useMemo } from 'react'
import { Alert, Button, Collapse, Form, Input, InputNumber, Select, Space, Typography } from 'antd'
import { ReloadOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { formatDate, isNeverExpiring } from '~/lib/format'
import {
  SHARE_ID_PATTERN,
  isShareIdAvailable,
  randomShareId,
  type CreateShareInput,
} from '~/lib/upload'
import { expirationInput, maximumExpiry, type TimespanUnit } from '#api/expiration'
import ExpirationFields, { initialExpiration } from '~/components/upload/expiration_fields'
import FormModal, { FormFieldError } from '~/components/form_modal'

/** The form's values. */
interface CreateShareValues {
  id: string
  expirationValue: number
  expirationUnit: TimespanUnit
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
  /**
   * The expiry the share will get whatever is chosen (ISO, the epoch for
   * never): a reverse share's. The expiration field is then replaced by
   * that date.
   */
  fixedExpiration?: string
}

/** A refusal of `onSubmit` that belongs to one field. */
export class FieldError extends FormFieldError<'id'> {}

const MAX_ID_LENGTH = 50
const MIN_ID_LENGTH = 3
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * When the free-text fields (name, description, password) are checked: on
 * leaving them and on submit, not at every keystroke. Their rules are length
 * limits: the input's `maxLength` already holds the upper one, and a name
 * or password that is too short is pointed out as the field is left.
 * Checked on change, each keystroke ran a validation round: two meta
 * updates, a re-render, and an error-list update 10 ms later, plus three
 * autosize updates in the description. On a busy device that stream kept
 * React's nested-update counter from resetting. React then threw "Maximum
 * update depth exceeded" (a false positive of its loop detection,
 * facebook/react#32714) and dropped the update it was making.
 */
const TEXT_VALIDATE_TRIGGER = 'onBlur'

/**
 * The create-share modal of the upload page: link (random id of
 * `share.shareIdLength` characters, live availability check), expiration
 * (number and unit or never, capped by `share.maxExpiration`), name,
 * description, e-mail recipients, password and maximum views.
 */
export default function CreateShareModal({
  open,
  onCancel,
  onSubmit,
  isVisitor,
  fixedExpiration,
}: CreateShareModalProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const [form] = Form.useForm<CreateShareValues>()

  const idLength = config.number('share.shareIdLength', 8)
  const appUrl = config.string('general.appUrl')
  const defaultExpiration = config.string('share.defaultExpiration', '7 days')
  const hasMaximum = maximumExpiry(config.string('share.maxExpiration', '0 days')) !== null
  // The server refuses recipients unless sharing by e-mail and SMTP are both on.
  const canMailRecipients =
    config.boolean('email.enableShareEmailRecipients') && config.boolean('smtp.enabled')

  // A fresh random link each time the dialog opens, drawn in the browser (the server renders it closed). In the
  // initial values, not set by an effect: a Share clicked before that effect ran (a busy device) sent an empty link.
  const initialValues = useMemo<Partial<CreateShareValues>>(
    () => ({
      id: open ? randomShareId(idLength) : '',
      ...initialExpiration(defaultExpiration, hasMaximum),
      recipients: [],
    }),
    [open, idLength, defaultExpiration, hasMaximum]
  )

  const submit = (values: CreateShareValues) =>
    onSubmit({
      id: values.id.trim(),
      name: values.name?.trim() || undefined,
      description: values.description?.trim() || undefined,
      // With a fixed expiry the server ignores the value (a reverse share's expiry applies).
      expiration:
        fixedExpiration === undefined
          ? expirationInput(
              values.never ? null : { value: values.expirationValue, unit: values.expirationUnit }
            )
          : 'never',
      recipients: values.recipients ?? [],
      security: {
        password: values.password || undefined,
        maxViews: values.maxViews || undefined,
      },
    })

  return (
    <FormModal<CreateShareValues>
      open={open}
      onCancel={onCancel}
      title={t('upload.modal.title')}
      cancelText={t('upload.modal.cancel')}
      submitText={t('upload.modal.submit')}
      name="createShare"
      form={form}
      initialValues={initialValues}
      onSubmit={submit}
      notice={
        isVisitor && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('upload.modal.visitorWarning')}
          />
        )
      }
    >
      <Form.Item label={t('upload.modal.link')} required>
        <Space.Compact style={{ width: '100%' }}>
          {/* A URL reads left to right in every language: in Arabic the neutral slashes would otherwise move ("/s/host"). */}
          <Space.Addon dir="ltr" data-testid="share-link-prefix">
            {`${appUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '')}/s/`}
          </Space.Addon>
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
                    available = await isShareIdAvailable(
                      { fetch: (...args) => fetch(...args) },
                      value.trim()
                    )
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

      {fixedExpiration !== undefined ? (
        <Form.Item label={t('upload.modal.expiration')}>
          <Typography.Text data-testid="fixed-expiration">
            {isNeverExpiring(fixedExpiration)
              ? t('upload.modal.neverExpiresInfo')
              : t('upload.modal.expiresOn', { date: formatDate(fixedExpiration, locale) })}
          </Typography.Text>
        </Form.Item>
      ) : (
        <ExpirationFields form={form} messages="upload.modal" />
      )}

      <Form.Item
        name="name"
        validateTrigger={TEXT_VALIDATE_TRIGGER}
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
        validateTrigger={TEXT_VALIDATE_TRIGGER}
        label={t('upload.modal.description')}
        rules={[{ max: 512, message: t('validation.maxLength', { length: 512 }) }]}
      >
        <Input.TextArea
          placeholder={t('upload.modal.descriptionPlaceholder')}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={512}
        />
      </Form.Item>
      {canMailRecipients && (
        <Form.Item
          name="recipients"
          label={t('upload.modal.recipients')}
          extra={t('upload.modal.recipientsHelp')}
          rules={[
            {
              validator: async (_rule, value: string[] | undefined) => {
                if ((value ?? []).some((email) => !EMAIL.test(email)))
                  throw new Error(t('upload.modal.invalidEmail'))
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
      )}

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
                  validateTrigger={TEXT_VALIDATE_TRIGGER}
                  label={t('upload.modal.password')}
                  rules={[
                    { min: 3, message: t('validation.minLength', { length: 3 }) },
                    { max: 30, message: t('validation.maxLength', { length: 30 }) },
                  ]}
                >
                  <Input.Password
                    placeholder={t('upload.modal.passwordPlaceholder')}
                    autoComplete="new-password"
                  />
                </Form.Item>
                <Form.Item
                  name="maxViews"
                  label={t('upload.modal.maxViews')}
                  style={{ marginBottom: 0 }}
                >
                  <InputNumber
                    min={1}
                    precision={0}
                    placeholder={t('upload.modal.maxViewsPlaceholder')}
                    style={{ width: '100%' }}
                  />
                </Form.Item>
              </>
            ),
          },
        ]}
      />
    </FormModal>
  )
}
