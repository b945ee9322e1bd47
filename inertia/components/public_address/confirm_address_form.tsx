/**
 * The form that confirms the public address of the site (`general.appUrl`):
 * one field, prefilled with the address the browser uses
 * (`window.location.origin`: right even behind a proxy that rewrites the
 * Host header), changeable. On submit the address (scheme, host and port,
 * no path) goes to `onConfirm`, which stores it (`PATCH /api/configs/admin`).
 * Used by the step an admin meets after signing in
 * (`~/components/auth/address_step`) and by the admin panel's notice
 * (`~/admin/components/config/setup_notice`).
 */
import { useState, type ReactNode } from 'react'
import { Button, Flex, Form, Input } from 'antd'
import { useTranslate } from '~/lib/i18n'
import FormError from '~/components/auth/form_error'

/**
 * `value` as a public address (`https://files.example.com:8443`): an http(s)
 * URL without path, query, fragment or credentials; null for anything else.
 */
export function publicAddressOf(value: string): string | null {
  try {
    const url = new URL(value.trim())
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return null
    return url.origin
  } catch {
    return null
  }
}

/** The address the browser uses now ("" while rendering on the server). */
function currentOrigin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin
}

interface Values {
  address: string
}

/** See the module comment. */
export function ConfirmAddressForm(props: {
  /** The form's name (ids of its fields: `<name>_address`). */
  name: string
  /** Stores the address; a rejection is shown above the field through `describeError`. */
  onConfirm: (address: string) => Promise<unknown>
  /** The text of a refusal. */
  describeError: (error: unknown) => string
  submitLabel: string
  /** Next to the submit button (e.g. "Later"). */
  secondary?: ReactNode
  /** Large fields and full-width buttons, as on the sign-in card. */
  large?: boolean
  autoFocus?: boolean
}) {
  const t = useTranslate()
  const [form] = Form.useForm<Values>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const finish = async (values: Values) => {
    const address = publicAddressOf(values.address)
    if (!address) return
    setBusy(true)
    setError(null)
    try {
      await props.onConfirm(address)
    } catch (caught) {
      setError(props.describeError(caught))
    } finally {
      setBusy(false)
    }
  }

  const size = props.large ? 'large' : 'middle'
  return (
    <Form
      form={form}
      name={props.name}
      layout="vertical"
      requiredMark={false}
      onFinish={finish}
      initialValues={{ address: currentOrigin() }}
    >
      <FormError error={error} />
      <Form.Item
        name="address"
        label={t('public_address.field.label')}
        extra={t('public_address.field.help')}
        validateTrigger="onBlur"
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              if (!publicAddressOf(value ?? '')) throw new Error(t('public_address.field.invalid'))
            },
          },
        ]}
      >
        <Input
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          size={size}
          autoFocus={props.autoFocus}
          dir="ltr"
        />
      </Form.Item>
      <Flex gap={8} wrap vertical={props.large}>
        <Button type="primary" htmlType="submit" loading={busy} size={size} block={props.large}>
          {props.submitLabel}
        </Button>
        {props.secondary}
      </Flex>
    </Form>
  )
}
