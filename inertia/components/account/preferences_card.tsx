import { Flex } from 'antd'
import { useI18n } from '~/lib/i18n'
import SectionCard from '~/components/account/section_card'
import { ColorSchemeField, LanguageField } from '~/components/shell/preference_fields'

/**
 * Language (every locale, or the browser's) and colour scheme (light, dark,
 * system). The language reloads the page; the scheme applies at once.
 */
export default function PreferencesCard() {
  const { t } = useI18n()
  return (
    <SectionCard id="preferences" title={t('account.preferences.title')}>
      <Flex vertical gap={20}>
        <LanguageField
          labelId="account-language-label"
          label={t('account.preferences.language')}
          testId="account-language"
          style={{ maxWidth: 320 }}
        />
        <ColorSchemeField
          labelId="account-theme-label"
          label={t('account.preferences.colorScheme')}
        />
      </Flex>
    </SectionCard>
  )
}
