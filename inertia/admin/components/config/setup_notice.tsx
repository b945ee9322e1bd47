/**
 * First run: while no public address is confirmed, the landing and
 * configuration pages ask for it (`AppUrlNotice`: the address the browser
 * uses, changeable, saying what waits for it); until an admin marks the
 * setup as finished (`internal.setupFinished`), they invite them to review
 * the settings and then finish the setup.
 */
import { useEffect, useState } from 'react'
import { Alert, App, Button, Typography } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { finishSetup, isSetupFinished, updateVariable } from '~/admin/lib/config_api'
import { useAdminErrorText } from '~/admin/lib/errors'
import { APP_URL_KEY, trimAppUrl, useAppUrl } from '~/admin/lib/app_url'
import { PHONE, useAdminStyles } from '~/admin/lib/styles'
import { ConfirmAddressForm } from '~/components/public_address/confirm_address_form'

/** See the module comment. */
export function SetupNotice() {
  return (
    <>
      <AppUrlNotice />
      <FinishSetupNotice />
    </>
  )
}

/** Props of {@link OneClickNotice}: what it loads, shows and does. */
interface OneClickNoticeProps<T> {
  /** What the notice is about, or null when there is nothing to ask (the notice stays hidden). */
  load(): Promise<T | null>
  /** The click's action; the notice hides once it succeeded. */
  act(value: T): Promise<unknown>
  type: 'info' | 'warning'
  testId: string
  message(value: T): string
  description: string
  button: string
  done(value: T): string
}

/**
 * An alert with one button, shown while `load` answers something; errors of
 * `act` become a notification. On phones the button goes under the text
 * (beside it, it would leave the text a few characters wide).
 */
function OneClickNotice<T>({
  load,
  act,
  type,
  testId,
  message,
  description,
  button,
  done,
}: OneClickNoticeProps<T>) {
  useAdminStyles('one-click-notice', (token) => ({
    [PHONE]: {
      '.ant-alert.tern-one-click-notice': { flexWrap: 'wrap' },
      '.ant-alert.tern-one-click-notice .ant-alert-action': {
        flexBasis: '100%',
        marginInlineStart: token.fontSizeHeading3 + token.marginSM,
        marginTop: token.marginSM,
      },
    },
  }))
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const [value, setValue] = useState<T | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    load()
      .then((loaded) => live && setValue(loaded))
      .catch(() => undefined)
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked once, when the notice mounts
  }, [])

  if (value === null) return null
  const click = async () => {
    setBusy(true)
    try {
      await act(value)
      setValue(null)
      notification.success({ message: done(value) })
    } catch (error) {
      notification.error({ message: errorText(error) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Alert
      type={type}
      showIcon
      className="tern-one-click-notice"
      style={{ marginBottom: 24 }}
      message={message(value)}
      description={description}
      data-testid={testId}
      action={
        <Button type="primary" loading={busy} onClick={() => void click()}>
          {button}
        </Button>
      }
    />
  )
}

/**
 * While no public address is confirmed: what waits for it, and the address
 * the browser uses in a field to confirm (stored as general.appUrl).
 */
function AppUrlNotice() {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const { appUrl, setAppUrl } = useAppUrl()
  if (appUrl !== null) return null
  const confirm = async (address: string) => {
    const [saved] = await updateVariable(APP_URL_KEY, address)
    const confirmed = trimAppUrl(saved?.value ?? address)
    setAppUrl(confirmed)
    notification.success({ message: t('public_address.notice.done', { url: confirmed }) })
  }
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 24 }}
      data-testid="app-url-notice"
      message={t('public_address.notice.title')}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 12 }}>
            {t('public_address.waits')}
          </Typography.Paragraph>
          <div style={{ maxWidth: 480 }}>
            <ConfirmAddressForm
              name="appUrlNotice"
              onConfirm={confirm}
              describeError={errorText}
              submitLabel={t('public_address.notice.confirm')}
            />
          </div>
        </>
      }
    />
  )
}

/** Shown until the setup is finished. */
function FinishSetupNotice() {
  const t = useTranslate()
  return (
    <OneClickNotice
      load={async () => ((await isSetupFinished()) ? null : true)}
      act={finishSetup}
      type="info"
      testId="setup-notice"
      message={() => t('admin.setup.title')}
      description={t('admin.setup.description')}
      button={t('admin.setup.finish')}
      done={() => t('admin.setup.done')}
    />
  )
}
