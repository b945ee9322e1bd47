/**
 * The variables of one category in a form. Save sends each changed variable
 * (`PATCH /api/configs/admin`, one variable per request so that a refusal is
 * shown at the field it belongs to: the server's messages do not always name
 * the key); the others are saved. Reset to default sends `""` for one
 * variable at once.
 *
 * general.appUrl shows empty while no public address is confirmed (its
 * default is a placeholder, not the address); saving a value confirms it,
 * resetting it takes the confirmation back (`~/admin/lib/app_url`).
 */
import { useEffect, useRef, useState } from 'react'
import { App, Button, Form, Space } from 'antd'
import { SaveOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { isChanged, toApiValue, toFormValue } from '~/admin/lib/config_values'
import { updateVariable } from '~/admin/lib/config_api'
import type { AdminConfigVariable } from '#api/config'
import { useAdminErrorText } from '~/admin/lib/errors'
import { ConfigField } from '~/admin/components/config/config_field'
import { OAuthGroups } from '~/admin/components/config/oauth_groups'
import { useSetAppName } from '~/admin/lib/app_name'
import { APP_URL_KEY, trimAppUrl, useAppUrl } from '~/admin/lib/app_url'

function formValues(variables: readonly AdminConfigVariable[]) {
  return Object.fromEntries(
    variables.map((variable) => [variable.key, toFormValue(variable.type, variable.value)])
  )
}

/** `variable` as the form shows it: general.appUrl empty while no address is confirmed. */
function shown(variable: AdminConfigVariable, appUrl: string | null): AdminConfigVariable {
  return variable.key === APP_URL_KEY && appUrl === null ? { ...variable, value: '' } : variable
}

/** See the module comment. */
export function ConfigForm(props: { variables: readonly AdminConfigVariable[] }) {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const [form] = Form.useForm()
  const [variables, setVariables] = useState(props.variables)
  const [saving, setSaving] = useState(false)
  const [resetting, setResetting] = useState<string | null>(null)
  const setAppName = useSetAppName()
  const { appUrl, setAppUrl } = useAppUrl()

  useEffect(() => {
    const initial = props.variables.map((variable) => shown(variable, appUrl))
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the form is filled from new props after they arrive
    setVariables(initial)
    form.resetFields()
    form.setFieldsValue(formValues(initial))
    // Not on appUrl: an address confirmed by the notice is taken by the effect below, without resetting the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- not on appUrl, see the comment above
  }, [props.variables, form])

  // Only when the address changes after the form was filled; through setFields without `errors`
  // (setFieldValue passes new empty lists, and rc-field-form then reports its shared ones as "circular").
  const shownAppUrl = useRef(appUrl)
  useEffect(() => {
    if (shownAppUrl.current === appUrl) return
    shownAppUrl.current = appUrl
    if (!props.variables.some((variable) => variable.key === APP_URL_KEY)) return
    // eslint-disable-next-line react-hooks/set-state-in-effect -- follows an address confirmed elsewhere, see above
    setVariables((current) =>
      current.map((variable) =>
        variable.key === APP_URL_KEY ? { ...variable, value: appUrl ?? '' } : variable
      )
    )
    if (form.getFieldValue(APP_URL_KEY) !== (appUrl ?? ''))
      form.setFields([{ name: APP_URL_KEY, value: appUrl ?? '' }])
  }, [appUrl, props.variables, form])

  /** A server refusal shown at a field goes away once the field is edited. */
  const clearErrors = (changed: Record<string, unknown>) => {
    const withErrors = Object.keys(changed).filter((key) => form.getFieldError(key).length > 0)
    if (withErrors.length > 0) form.setFields(withErrors.map((key) => ({ name: key, errors: [] })))
  }

  /** Takes the server's view of saved (or, with `reset`, reset) variables into the list and the form. */
  const apply = (saved: AdminConfigVariable[], reset = false) => {
    let confirmed = appUrl
    const address = saved.find((item) => item.key === APP_URL_KEY)
    if (address) {
      confirmed = reset ? null : trimAppUrl(address.value)
      setAppUrl(confirmed)
    }
    const updated = saved.map((item) => shown(item, confirmed))
    setVariables((current) =>
      current.map((variable) => updated.find((item) => item.key === variable.key) ?? variable)
    )
    // The panel's title and sidebar follow a new app name at once.
    const appName = updated.find((item) => item.key === 'general.appName')
    if (appName) setAppName(appName.value)
    form.setFields(
      updated.map((item) => ({
        name: item.key,
        value: toFormValue(item.type, item.value),
        // Only clear an error that is there: rc-field-form warns when it compares its shared empty lists.
        ...(form.getFieldError(item.key).length > 0 ? { errors: [] } : {}),
      }))
    )
  }

  const save = async (values: Record<string, unknown>) => {
    const changed = variables.filter(
      (variable) =>
        variable.allowEdit && isChanged(variable.type, variable.value, values[variable.key])
    )
    if (changed.length === 0) {
      notification.info({ message: t('admin.config.nothingChanged') })
      return
    }
    setSaving(true)
    let failed = 0
    for (const variable of changed) {
      try {
        apply(await updateVariable(variable.key, toApiValue(variable.type, values[variable.key])))
      } catch (error) {
        failed++
        form.setFields([{ name: variable.key, errors: [errorText(error)] }])
      }
    }
    setSaving(false)
    if (failed === 0) notification.success({ message: t('admin.config.saved') })
    else notification.error({ message: t('admin.config.saveFailed', { count: failed }) })
  }

  const reset = async (variable: AdminConfigVariable) => {
    setResetting(variable.key)
    try {
      apply(await updateVariable(variable.key, ''), true)
      notification.success({ message: t('admin.config.resetDone') })
    } catch (error) {
      form.setFields([{ name: variable.key, errors: [errorText(error)] }])
    } finally {
      setResetting(null)
    }
  }

  const field = (variable: AdminConfigVariable) => (
    <ConfigField
      key={variable.key}
      variable={variable}
      resetting={resetting === variable.key}
      onReset={reset}
    />
  )

  return (
    <Form
      form={form}
      name="config"
      layout="vertical"
      onFinish={save}
      onValuesChange={clearErrors}
      initialValues={formValues(props.variables.map((variable) => shown(variable, appUrl)))}
      style={{ maxWidth: 720 }}
    >
      {variables[0]?.category === 'oauth' ? (
        <OAuthGroups variables={variables} field={field} />
      ) : (
        variables.map(field)
      )}
      <Space>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
          {t('admin.config.save')}
        </Button>
      </Space>
    </Form>
  )
}
