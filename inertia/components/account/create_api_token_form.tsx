import { useCallback } from 'react'
import { Button, DatePicker, Flex, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import type { CreatedApiToken } from '#api/api_token'
import { api, apiPaths } from '~/lib/api'
import { useValidationRules } from '~/lib/validation'
import FormError from '~/components/auth/form_error'
import { useApiForm } from '~/components/auth/use_api_form'

/** The date the picker gives (a dayjs object; only what is used here). */
interface PickedDate {
  endOf(unit: 'day'): PickedDate
  toISOString(): string
  valueOf(): number
}

interface Values {
  name: string
  expiresAt?: PickedDate | null
}

/** The field the API's "name already in use" refusal is shown at. */
const NAME_FIELD = ['name'] as const

/** Creates a personal API token: a name and an optional expiry date (end of that day). */
export default function CreateApiTokenForm(props: { onCreated: (token: CreatedApiToken) => void }) {
  const t = useTranslate()
  const rules = useValidationRules()
  const [form] = Form.useForm<Values>()
  const { onCreated } = props
  const submit = useCallback(
    async (values: Values) => {
      const body: { name: string; expiresAt?: string } = { name: values.name.trim() }
      if (values.expiresAt) body.expiresAt = values.expiresAt.endOf('day').toISOString()
      const token = await api.post<CreatedApiToken>(apiPaths.apiTokens, body)
      form.resetFields()
      onCreated(token)
    },
    [form, onCreated]
  )
  // A name already in use is said at the name field.
  const { loading, error, onFinish } = useApiForm(form, submit, NAME_FIELD)

  return (
    <Form
      form={form}
      layout="vertical"
      name="createApiToken"
      requiredMark={false}
      onFinish={onFinish}
    >
      <FormError error={error} />
      <Flex gap={16} wrap align="flex-start">
        <Form.Item
          name="name"
          label={t('account.apiTokens.name')}
          rules={rules.tokenName}
          style={{ flex: '1 1 220px', marginBottom: 8 }}
        >
          <Input placeholder={t('account.apiTokens.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="expiresAt"
          label={t('account.apiTokens.expiresAtOptional')}
          style={{ flex: '0 1 220px', marginBottom: 8 }}
        >
          <DatePicker
            style={{ width: '100%' }}
            disabledDate={(date) => date.endOf('day').valueOf() < Date.now()}
            placeholder={t('account.apiTokens.noExpiry')}
          />
        </Form.Item>
      </Flex>
      <Button type="primary" htmlType="submit" loading={loading}>
        {t('account.apiTokens.create')}
      </Button>
    </Form>
  )
}
