/**
 * First run: until an admin marks the setup as finished
 * (`internal.setupFinished`), the landing and configuration pages invite
 * them to review the settings and then finish the setup. While
 * general.appUrl is still its default, it also offers to take the address
 * the browser uses as the app URL in one click (`AppUrlNotice`).
 */
import { useEffect, useState } from 'react'
import { Alert, App, Button } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { configPaths, finishSetup, isSetupFinished, updateVariable } from '~/admin/lib/config_api'
import { adminHttp } from '~/admin/lib/http'
import type { AdminConfigVariable } from '#api/config'
import { useAdminErrorText } from '~/admin/lib/errors'
import { PHONE, useAdminStyles } from '~/admin/lib/styles'

/** See the module comment. */
export function SetupNotice() {
  return (
    <>
      <AppUrlNotice />
      <FinishSetupNotice />
    </>
  )
}

/** The address the browser uses, when general.appUrl is still its default and differs from it; else null. */
async function unconfirmedAddress(): Promise<string | null> {
  const variables = await adminHttp.get<AdminConfigVariable[]>(configPaths.category('general'))
  const appUrl = variables.find((variable) => variable.key === 'general.appUrl')
  if (!appUrl || !appUrl.allowEdit) return null
  const trim = (url: string) => url.replace(/\/+$/, '')
  if (trim(appUrl.value) !== trim(appUrl.defaultValue)) return null
  const origin = window.location.origin
  return origin === trim(appUrl.value) ? null : origin
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
function OneClickNotice<T>({ load, act, type, testId, message, description, button, done }: OneClickNoticeProps<T>) {
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
 * "Tern is reached at <origin>: use this address for links?" while
 * general.appUrl is unset; one click stores the origin as general.appUrl.
 */
function AppUrlNotice() {
  const t = useTranslate()
  return (
    <OneClickNotice
      load={unconfirmedAddress}
      act={(origin) => updateVariable('general.appUrl', origin)}
      type="warning"
      testId="app-url-notice"
      message={(origin) => t('admin.setup.appUrl.title', { url: origin })}
      description={t('admin.setup.appUrl.description')}
      button={t('admin.setup.appUrl.confirm')}
      done={(origin) => t('admin.setup.appUrl.done', { url: origin })}
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
