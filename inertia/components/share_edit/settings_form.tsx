import { useMemo, useState, type ReactNode } from 'react'
import {
  Alert,
  App,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Typography,
} from 'antd'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { api } from '~/lib/api'
import { formatDate, isNeverExpiring } from '~/lib/format'
import { useErrorText } from '~/lib/validation'
import type { Share as OwnedShare } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'
import {
  TIMESPAN_UNITS,
  addTimespan,
  exceedsMaximum,
  expirationInput,
  maximumTimespan,
  type TimespanUnit,
} from '#api/expiration'
import { shareEditErrorText } from '~/components/share_edit/errors'

/** Bounds of the share fields, the server's (app/validators/shares.ts). */
export const SHARE_LIMITS = {
  nameMin: 3,
  nameMax: 30,
  descriptionMax: 512,
  passwordMin: 3,
  passwordMax: 30,
} as const

/** The heading of a group of fields, styled like a form label. */
function Legend(props: { children: ReactNode }) {
  return (
    <legend style={{ fontSize: 14, margin: '0 0 4px', border: 0, padding: 0, color: 'inherit' }}>
      <Typography.Text strong>{props.children}</Typography.Text>
    </legend>
  )
}

type ExpirationMode = 'keep' | 'set' | 'never'
type PasswordMode = 'keep' | 'set' | 'remove'

interface SettingsValues {
  name: string
  description: string
  expirationMode: ExpirationMode
  expirationValue: number | null
  expirationUnit: TimespanUnit
  passwordMode: PasswordMode
  password: string
  limitViews: boolean
  maxViews: number | null
}

/** Props of {@link SettingsForm}. */
export interface SettingsFormProps {
  share: OwnedShare
  /** The share's current view limit (null: none). */
  maxViews: number | null
  /** The expiration was set by a reverse share's link: shown, not editable. */
  expirationFixed?: boolean
  /** Called with the saved share and its view limit. */
  onSaved: (share: OwnedShare, maxViews: number | null) => void
}

/** The `PATCH /api/shares/:id` body for the form's values: only what the user changed. */
export function patchBody(values: SettingsValues, current: { maxViews: number | null }) {
  const body: Record<string, unknown> = {
    name: values.name.trim() || null,
    description: values.description.trim() ? values.description : null,
  }
  if (values.expirationMode === 'never') body.expiration = expirationInput(null)
  if (values.expirationMode === 'set' && values.expirationValue) {
    body.expiration = expirationInput({
      value: values.expirationValue,
      unit: values.expirationUnit,
    })
  }
  const security: Record<string, unknown> = {}
  if (values.passwordMode === 'set') security.password = values.password
  if (values.passwordMode === 'remove') security.password = null
  const maxViews = values.limitViews ? (values.maxViews ?? null) : null
  if (maxViews !== current.maxViews) security.maxViews = maxViews
  if (Object.keys(security).length) body.security = security
  return body
}

/**
 * The share's settings: name, description, expiration (kept, a number and a
 * unit, or never; capped by `share.maxExpiration` like on creation),
 * password (set, change, remove) and view limit (set, remove), saved with
 * `PATCH /api/shares/:id`.
 */
export default function SettingsForm({
  share,
  maxViews,
  expirationFixed = false,
  onSaved,
}: SettingsFormProps) {
  const { t, locale } = useI18n()
  const errorText = useErrorText()
  const { notification } = App.useApp()
  const config = useConfig()
  const [form] = Form.useForm<SettingsValues>()
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const maxExpiration = useMemo(
    () => maximumTimespan(config.string('share.maxExpiration')),
    [config]
  )

  const initialValues = useMemo<SettingsValues>(
    () => ({
      name: share.name ?? '',
      description: share.description ?? '',
      expirationMode: 'keep',
      expirationValue: 7,
      expirationUnit: 'day',
      passwordMode: 'keep',
      password: '',
      limitViews: maxViews !== null,
      maxViews,
    }),
    [share, maxViews]
  )

  const expirationMode = Form.useWatch('expirationMode', form) ?? 'keep'
  const passwordMode = Form.useWatch('passwordMode', form) ?? 'keep'
  const limitViews = Form.useWatch('limitViews', form) ?? initialValues.limitViews
  const expirationValue = Form.useWatch('expirationValue', form) ?? initialValues.expirationValue
  const maxDate = maxExpiration
    ? formatDate(addTimespan(new Date(), maxExpiration).toISOString(), locale)
    : null

  const save = async (values: SettingsValues) => {
    setSaving(true)
    setError(null)
    try {
      const body = patchBody(values, { maxViews })
      const saved = await api.patch<OwnedShare>(sharePaths.share(share.id), body)
      const views = values.limitViews ? (values.maxViews ?? null) : null
      onSaved(saved, views)
      form.setFieldsValue({
        expirationMode: 'keep',
        passwordMode: 'keep',
        password: '',
        limitViews: views !== null,
        maxViews: views,
      })
      notification.success({ message: t('share_edit.settings.saved') })
    } catch (cause) {
      setError(shareEditErrorText(t, errorText, cause))
    } finally {
      setSaving(false)
    }
  }

  const currentExpiry = isNeverExpiring(share.expiration)
    ? t('share_edit.settings.expiration.currentNever')
    : t('share_edit.settings.expiration.current', { date: formatDate(share.expiration, locale) })

  return (
    <Form<SettingsValues>
      form={form}
      name="shareSettings"
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => void save(values)}
      requiredMark={false}
      disabled={saving}
    >
      <Form.Item
        name="name"
        label={t('share_edit.settings.name')}
        extra={t('share_edit.settings.nameHint')}
        rules={[
          {
            min: SHARE_LIMITS.nameMin,
            message: t('validation.minLength', { length: SHARE_LIMITS.nameMin }),
          },
          {
            max: SHARE_LIMITS.nameMax,
            message: t('validation.maxLength', { length: SHARE_LIMITS.nameMax }),
          },
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('share_edit.settings.description')}
        rules={[
          {
            max: SHARE_LIMITS.descriptionMax,
            message: t('validation.maxLength', { length: SHARE_LIMITS.descriptionMax }),
          },
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 8 }}
          showCount
          maxLength={SHARE_LIMITS.descriptionMax}
        />
      </Form.Item>

      <fieldset style={{ border: 0, padding: 0, margin: '0 0 8px' }}>
        <Legend>{t('share_edit.settings.expiration.label')}</Legend>
        <Typography.Paragraph
          type="secondary"
          data-testid="current-expiration"
          style={{ marginBottom: 8 }}
        >
          {currentExpiry}
        </Typography.Paragraph>
        {expirationFixed && (
          <Typography.Paragraph type="secondary" data-testid="expiration-fixed">
            {t('share_edit.settings.expiration.fixedByReverseShare')}
          </Typography.Paragraph>
        )}
        <Form.Item name="expirationMode" hidden={expirationFixed} style={{ marginBottom: 8 }}>
          <Radio.Group aria-label={t('share_edit.settings.expiration.label')}>
            <Radio value="keep">{t('share_edit.settings.expiration.keep')}</Radio>
            <Radio value="set">{t('share_edit.settings.expiration.set')}</Radio>
            <Radio value="never" disabled={maxExpiration !== null}>
              {t('share_edit.settings.expiration.never')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {!expirationFixed && expirationMode === 'set' && (
          <Flex gap={8} wrap>
            <Form.Item
              name="expirationValue"
              label={t('share_edit.settings.expiration.amount')}
              dependencies={['expirationUnit']}
              rules={[
                { required: true, message: t('validation.required') },
                { type: 'integer', min: 1, message: t('validation.number') },
                {
                  validator: async (_, value: number | null) => {
                    const unit = form.getFieldValue('expirationUnit') as TimespanUnit
                    const now = new Date()
                    const maximum = maxExpiration ? addTimespan(now, maxExpiration) : null
                    if (value && exceedsMaximum({ value, unit }, maximum, now)) {
                      throw new Error(
                        t('share_edit.settings.expiration.tooLong', { max: maxDate ?? '' })
                      )
                    }
                  },
                },
              ]}
            >
              <InputNumber min={1} precision={0} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="expirationUnit" label={t('share_edit.settings.expiration.unit')}>
              <Select
                style={{ width: 160 }}
                options={TIMESPAN_UNITS.map((unit) => ({
                  value: unit,
                  label: t(`share_edit.settings.expiration.units.${unit}`, {
                    count: Number(expirationValue) || 0,
                  }),
                }))}
              />
            </Form.Item>
          </Flex>
        )}
        {maxDate && (
          <Typography.Paragraph type="secondary">
            {t('share_edit.settings.expiration.maximum', { max: maxDate })}
          </Typography.Paragraph>
        )}
      </fieldset>

      <fieldset style={{ border: 0, padding: 0, margin: '0 0 8px' }}>
        <Legend>{t('share_edit.settings.password.label')}</Legend>
        <Typography.Paragraph
          type="secondary"
          data-testid="current-password-state"
          style={{ marginBottom: 8 }}
        >
          {share.hasPassword
            ? t('share_edit.settings.password.isSet')
            : t('share_edit.settings.password.isNotSet')}
        </Typography.Paragraph>
        <Form.Item name="passwordMode" style={{ marginBottom: 8 }}>
          <Radio.Group aria-label={t('share_edit.settings.password.label')}>
            <Radio value="keep">
              {share.hasPassword
                ? t('share_edit.settings.password.keep')
                : t('share_edit.settings.password.none')}
            </Radio>
            <Radio value="set">
              {share.hasPassword
                ? t('share_edit.settings.password.change')
                : t('share_edit.settings.password.set')}
            </Radio>
            {share.hasPassword && (
              <Radio value="remove">{t('share_edit.settings.password.remove')}</Radio>
            )}
          </Radio.Group>
        </Form.Item>
        {passwordMode === 'set' && (
          <Form.Item
            name="password"
            label={t('share_edit.settings.password.new')}
            rules={[
              { required: true, message: t('validation.required') },
              {
                min: SHARE_LIMITS.passwordMin,
                message: t('validation.minLength', { length: SHARE_LIMITS.passwordMin }),
              },
              {
                max: SHARE_LIMITS.passwordMax,
                message: t('validation.maxLength', { length: SHARE_LIMITS.passwordMax }),
              },
            ]}
          >
            <Input.Password autoComplete="new-password" style={{ maxWidth: 320 }} />
          </Form.Item>
        )}
      </fieldset>

      <fieldset style={{ border: 0, padding: 0, margin: '0 0 8px' }}>
        <Legend>{t('share_edit.settings.maxViews.label')}</Legend>
        <Form.Item name="limitViews" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('share_edit.settings.maxViews.limit')}</Checkbox>
        </Form.Item>
        {limitViews && (
          <Form.Item
            name="maxViews"
            label={t('share_edit.settings.maxViews.amount')}
            rules={[
              { required: true, message: t('validation.required') },
              { type: 'integer', min: 1, message: t('validation.number') },
            ]}
          >
            <InputNumber min={1} precision={0} style={{ width: 160 }} />
          </Form.Item>
        )}
      </fieldset>

      <div aria-live="polite">
        {error && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('share_edit.errors.saveFailed')}
            description={error}
            data-testid="settings-error"
          />
        )}
      </div>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('share_edit.settings.save')}
      </Button>
    </Form>
  )
}
