import { Flex, Typography } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import AccountInfoCard from '~/components/account/account_info_card'
import PasswordCard from '~/components/account/password_card'
import SecurityCard from '~/components/account/security_card'
import SocialAccountsCard from '~/components/account/social_accounts_card'
import ApiTokensCard from '~/components/account/api_tokens_card'
import PreferencesCard from '~/components/account/preferences_card'
import NotificationSettingsCard from '~/components/account/notification_settings'
import DeleteAccountCard from '~/components/account/delete_account_card'

/**
 * My account: info, password, security (TOTP), social login, API tokens,
 * notifications, language and colour scheme, delete account.
 */
export default function Account() {
  const t = useTranslate()
  return (
    <>
      <Head title={t('account.title')} />
      <Flex vertical gap={24} style={{ maxWidth: 800, margin: '0 auto' }}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
          {t('account.title')}
        </Typography.Title>
        <AccountInfoCard />
        <PasswordCard />
        <SecurityCard />
        <SocialAccountsCard />
        <ApiTokensCard />
        <NotificationSettingsCard />
        <PreferencesCard />
        <DeleteAccountCard />
      </Flex>
    </>
  )
}
