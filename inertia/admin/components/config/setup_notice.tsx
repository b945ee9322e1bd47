/**
 * First run: until an admin marks the setup as finished
 * (`internal.setupFinished`), the landing and configuration pages invite
 * them to review the settings and then finish the setup.
 */
import { useEffect, useState } from 'react'
import { Alert, App, Button } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { finishSetup, isSetupFinished } from '~/admin/lib/config_api'
import { useAdminErrorText } from '~/admin/lib/errors'

/** See the module comment. Renders nothing once the setup is finished. */
export function SetupNotice() {
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
