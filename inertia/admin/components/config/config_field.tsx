/**
 * One configuration variable in the form: its editor by type (switch,
 * number with the server's bounds, text, text area, file size with units,
 * timespan with units; a password input for obscured secrets, which show the
 * mask and are only sent when changed), its default and a reset to default.
 * general.appUrl shows no default (it is a placeholder, not an address) and,
 * while no address is confirmed, says so instead (`~/admin/lib/app_url`).
 */
import { Button, Form, Input, InputNumber, Popconfirm, Space, Switch, Typography } from 'antd'
import { UndoOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { DirectionalIcon } from '~/lib/rtl'
import type { AdminConfigVariable } from '#api/config'
import { FilesizeInput } from '~/admin/components/config/filesize_input'
import { TimespanInput } from '~/admin/components/config/timespan_input'
import {
  defaultText,
  variableDescription,
  variableLabel,
} from '~/admin/components/config/variable_text'
import { APP_URL_KEY, useAppUrl } from '~/admin/lib/app_url'

/**
 * The editor of a variable. Form.Item gives its child `value`/`checked`,
 * `onChange` and `id`: they are passed on to the input.
 */
function Editor(props: {
  variable: AdminConfigVariable
  label: string
  [injected: string]: unknown
}) {
  const { variable, label, ...field } = props
  const disabled = !variable.allowEdit
  switch (variable.type) {
    case 'boolean':
      return <Switch {...field} disabled={disabled} aria-label={label} />
    case 'number':
      return (
        <InputNumber
          {...field}
          disabled={disabled}
          min={variable.min}
          max={variable.max}
          precision={0}
          style={{ width: 180 }}
        />
      )
    case 'filesize':
      return <FilesizeInput {...field} disabled={disabled} min={variable.min} max={variable.max} />
    case 'timespan':
      return <TimespanInput {...field} disabled={disabled} />
    case 'text':
      return (
        <Input.TextArea {...field} disabled={disabled} autoSize={{ minRows: 3, maxRows: 12 }} />
      )
    default:
      return variable.obscured ? (
        <Input.Password {...field} disabled={disabled} autoComplete="new-password" />
      ) : (
        <Input {...field} disabled={disabled} autoComplete="off" />
      )
  }
}

/** A Form.Item named after the variable's key. */
export function ConfigField(props: {
  variable: AdminConfigVariable
  resetting: boolean
  onReset: (variable: AdminConfigVariable) => void
}) {
  const { t, messages, locale } = useI18n()
  const { variable } = props
  const label = variableLabel(t, messages, variable)
  const description = variableDescription(t, messages, variable)
  const { appUrl } = useAppUrl()
  const address = variable.key === APP_URL_KEY
  const unconfirmed = address && appUrl === null
  const canReset = variable.allowEdit && !unconfirmed && variable.value !== variable.defaultValue

  return (
    <div data-testid={`config-${variable.key}`}>
      <Form.Item
        name={variable.key}
        label={label}
        valuePropName={variable.type === 'boolean' ? 'checked' : 'value'}
        extra={
          <Space direction="vertical" size={2} style={{ width: '100%' }}>
            {description ? <span>{description}</span> : null}
            {unconfirmed ? (
              <Typography.Text strong data-testid="app-url-unconfirmed">
                {t('public_address.field.unconfirmed')}
              </Typography.Text>
            ) : null}
            {address && !canReset ? null : (
              <Space wrap size={8}>
                {address ? null : (
                  <Typography.Text type="secondary">
                    {t('admin.config.default', {
                      value: variable.obscured ? '—' : defaultText(t, locale, variable),
                    })}
                  </Typography.Text>
                )}
                {canReset ? (
                  <Popconfirm
                    title={t('admin.config.resetConfirm', { name: label })}
                    okText={t('admin.config.reset')}
                    cancelText={t('admin.common.cancel')}
                    onConfirm={() => props.onReset(variable)}
                  >
                    <Button
                      size="small"
                      type="link"
                      icon={<DirectionalIcon icon={<UndoOutlined />} />}
                      loading={props.resetting}
                    >
                      {t('admin.config.reset')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            )}
          </Space>
        }
      >
        <Editor variable={variable} label={label} />
      </Form.Item>
    </div>
  )
}
