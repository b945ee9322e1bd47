import { Alert, Tag } from 'antd'
import { useTranslate } from '~/lib/i18n'
import SectionCard from '~/components/account/section_card'
import TotpEnable from '~/components/account/totp_enable'
import TotpDisable from '~/components/account/totp_disable'
import { useCurrentUser } from '~/components/account/use_current_user'

/** Security: two-factor authentication (TOTP) on or off. */
export default function SecurityCard() {
  const t = useTranslate()
  const { user, reloadUser } = useCurrentUser()
  return (
    <SectionCard
      id="security"
      title={t('account.totp.title')}
      description={
        <>
          {t('account.totp.description')}{' '}
          <Tag color={user.totpVerified ? 'green' : 'default'} data-testid="totp-status">
            {user.totpVerified ? t('account.totp.statusOn') : t('account.totp.statusOff')}
          </Tag>
        </>
      }
    >
      {user.totpVerified ? (
        <TotpDisable onDisabled={reloadUser} />
      ) : user.hasPassword === false ? (
        <Alert type="info" showIcon message={t('account.totp.needsPassword')} />
      ) : (
        <TotpEnable onEnabled={reloadUser} />
      )}
    </SectionCard>
  )
}
