import { useState } from 'react'
import { Button } from 'antd'
import { GlobalOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { hasLanguageCookie, saveLanguageAndReload } from '~/lib/preferences'
import { LOCALES, localeInfo } from '../../../start/locales'
import DeferredDropdown from '~/components/shell/deferred_dropdown'

/** Header button with a menu of every language, plus "browser language". */
export default function LanguageMenu() {
  const { locale, t } = useI18n()
  const [selected, setSelected] = useState(locale)
  const current = localeInfo(locale)
  return (
    <DeferredDropdown
      autoFocus
      onOpenChange={(open) => {
        if (open) setSelected(hasLanguageCookie() ? locale : 'system')
      }}
      menu={{
        selectable: true,
        selectedKeys: [selected],
        style: { maxHeight: 'min(480px, 70vh)', overflowY: 'auto' },
        items: [
          { key: 'system', label: t('shell.language.system') },
          { type: 'divider' },
          ...LOCALES.map((entry) => ({
            key: entry.code,
            label: (
              <span lang={entry.code} dir={entry.rtl ? 'rtl' : 'ltr'}>
                {entry.name}
              </span>
            ),
          })),
        ],
        onClick: ({ key }) => saveLanguageAndReload(key),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('shell.language.current', { language: current.name })}
        title={t('shell.language.label')}
        data-testid="language-menu"
      >
        <span className="tern-language-code" aria-hidden="true">
          {current.code.split('-')[0].toUpperCase()}
        </span>
      </Button>
    </DeferredDropdown>
  )
}
