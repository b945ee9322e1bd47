import { useState } from 'react'
import { App, Button } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import SectionCard from '~/components/account/section_card'

/**
 * Deleting the account (`DELETE /api/users/me`) after a confirmation; the
 * user's shares go with it. Then the home page, signed out.
 */
export default function DeleteAccountCard() {
  const t = useTranslate()
  const errorText = useErrorText()
  const { modal, notification } = App.useApp()
  const [deleting, setDeleting] = useState(false)

  const confirm = () =>
    modal.confirm({
      title: t('account.delete.confirmTitle'),
      content: t('account.delete.confirmText'),
      okText: t('account.delete.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('account.cancel'),
      autoFocusButton: 'cancel',
      onOk: async () => {
        setDeleting(true)
        try {
          await api.delete(apiPaths.me)
        } catch (error) {
          setDeleting(false)
          notification.error({ message: errorText(error) })
          return
        }
        window.location.assign('/')
      },
    })

  return (
    <SectionCard id="delete" title={t('account.delete.title')} description={t('account.delete.description')} danger>
      <Button danger type="primary" loading={deleting} onClick={confirm}>
        {t('account.delete.button')}
      </Button>
    </SectionCard>
  )
}
