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

/**
 * "Tern is reached at <origin>: use this address for links?" while
 * general.appUrl is unset; one click stores the origin as general.appUrl.
 */
function AppUrlNotice() {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const [origin, setOrigin] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    unconfirmedAddress()
      .then((address) => live && setOrigin(address))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])

  if (!origin) return null
  const confirm = async () => {
    setBusy(true)
    try {
      await updateVariable('general.appUrl', origin)
      setOrigin(null)
      notification.success({ message: t('admin.setup.appUrl.done', { url: origin }) })
    } catch (error) {
      notification.error({ message: errorText(error) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 24 }}
      message={t('admin.setup.appUrl.title', { url: origin })}
      description={t('admin.setup.appUrl.description')}
      data-testid="app-url-notice"
      action={
        <Button type="primary" loading={busy} onClick={() => void confirm()}>
          {t('admin.setup.appUrl.confirm')}
        </Button>
      }
    />
  )
}

/** Renders nothing once the setup is finished. */
function FinishSetupNotice() {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const [finished, setFinished] = useState(true)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    isSetupFinished()
      .then((done) => live && setFinished(done))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])

  if (finished) return null
  const finish = async () => {
    setBusy(true)
    try {
      await finishSetup()
      setFinished(true)
      notification.success({ message: t('admin.setup.done') })
    } catch (error) {
      notification.error({ message: errorText(error) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 24 }}
      message={t('admin.setup.title')}
      description={t('admin.setup.description')}
      data-testid="setup-notice"
      action={
        <Button type="primary" loading={busy} onClick={() => void finish()}>
          {t('admin.setup.finish')}
        </Button>
      }
    />
  )
}
