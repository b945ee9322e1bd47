/**
 * The two preference fields offered both in the account page's preferences
 * card and in the burger menu's drawer: the colour scheme (applies at once)
 * and the language (saved in its cookie, then the page reloads).
 */
import { useEffect, useState, type CSSProperties } from 'react'
import { Segmented, Select, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { useColorScheme } from '~/lib/theme'
import { hasLanguageCookie, isColorScheme, saveLanguageAndReload } from '~/lib/preferences'
import { LOCALES } from '../../../start/locales'

interface FieldProps {
  /** Id of the label, unique in the page (the field is labelled by it). */
  labelId: string
  label: string
}

/** Light, dark or the system's scheme, as a segmented control under its label. */
export function ColorSchemeField({
  labelId,
  label,
  block = false,
}: FieldProps & { block?: boolean }) {
  const { t } = useI18n()
  const { scheme, setScheme } = useColorScheme()
  return (
    <div>
      <Typography.Text strong id={labelId}>
        {label}
      </Typography.Text>
      <div style={{ marginTop: 8 }}>
        <Segmented
          block={block}
          aria-labelledby={labelId}
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
  )
}

/**
 * Every language, or "browser language". The server cannot tell a chosen
 * language from the browser's: the cookie decides once `refreshKey` changes
 * (after hydration, or when the drawer holding it opens).
 */
export function LanguageField({
  labelId,
  label,
  style,
  testId,
  refreshKey,
}: FieldProps & { style?: CSSProperties; testId?: string; refreshKey?: unknown }) {
  const { t, locale } = useI18n()
  const [language, setLanguage] = useState(locale)
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the cookie is read after hydration, see the comment above
  useEffect(() => setLanguage(hasLanguageCookie() ? locale : 'system'), [locale, refreshKey])
  return (
    <div>
      <Typography.Text strong id={labelId}>
        {label}
      </Typography.Text>
      <Select
        style={{ width: '100%', display: 'block', marginTop: 8, ...style }}
        aria-labelledby={labelId}
        data-testid={testId}
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
  )
}
