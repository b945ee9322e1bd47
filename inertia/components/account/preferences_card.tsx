import { useEffect, useState } from 'react'
import { Flex, Segmented, Select, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useColorScheme } from '~/lib/theme'
import { isColorScheme, LANGUAGE_COOKIE, saveLanguageAndReload } from '~/lib/preferences'
import SectionCard from '~/components/account/section_card'
import { LOCALES } from '../../../start/locales'

function hasLanguageCookie() {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${LANGUAGE_COOKIE}=`))
}

/**
 * Language (every locale, or the browser's) and colour scheme (light, dark,
 * system). The language reloads the page; the scheme applies at once.
 */
export default function PreferencesCard() {
  const { t, locale } = useI18n()
  const { scheme, setScheme } = useColorScheme()
  // The server cannot tell "chosen" from "browser language": the cookie decides after hydration.
  const [language, setLanguage] = useState(locale)
  useEffect(() => setLanguage(hasLanguageCookie() ? locale : 'system'), [locale])

  return (
    <SectionCard id="preferences" title={t('account.preferences.title')}>
      <Flex vertical gap={20}>
        <div>
          <Typography.Text strong id="account-language-label">
            {t('account.preferences.language')}
          </Typography.Text>
          <Select
            style={{ width: '100%', maxWidth: 320, display: 'block', marginTop: 8 }}
            aria-labelledby="account-language-label"
            data-testid="account-language"
            value={language}
            showSearch
            optionFilterProp="label"
            onChange={(value: string) => {
              setLanguage(value)
              saveLanguageAndReload(value)
            }}
            options={[
              { value: 'system', label: t('shell.language.system') },
              ...LOCALES.map((entry) => ({ value: entry.code, label: entry.name })),
            ]}
          />
        </div>
        <div>
          <Typography.Text strong id="account-theme-label">
            {t('account.preferences.colorScheme')}
          </Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Segmented
              aria-labelledby="account-theme-label"
              value={scheme}
              onChange={(value) => {
                if (isColorScheme(value)) setScheme(value)
              }}
              options={(['light', 'dark', 'system'] as const).map((value) => ({
                value,
                label: t(`shell.theme.${value}`),
              }))}
            />
          </div>
        </div>
      </Flex>
    </SectionCard>
  )
}
