import { useState } from 'react'
import { Button, Divider, Drawer, Flex, Segmented, Select, Typography } from 'antd'
import { LogoutOutlined, MenuOutlined } from '@ant-design/icons'
import { usePage } from '@inertiajs/react'
import { useI18n } from '~/lib/i18n'
import { useColorScheme } from '~/lib/theme'
import { isColorScheme, saveLanguageAndReload } from '~/lib/preferences'
import { useAppName } from '~/lib/config'
import NavButton from '~/components/shell/nav_button'
import { useCurrentPath, useNavItems } from '~/components/shell/use_nav_items'
import { useSignOut, } from '~/components/shell/user_menu'
import { hasLanguageCookie } from '~/components/shell/language_menu'
import { LOCALES } from '../../../start/locales'

/**
 * Small screens: a burger button opening a drawer with every link of the
 * header, the colour scheme and the language.
 */
export default function MobileNav() {
  const { t, locale } = useI18n()
  const [open, setOpen] = useState(false)
  const [language, setLanguage] = useState(locale)
  const { user } = usePage().props
  const { main, account } = useNavItems()
  const path = useCurrentPath()
  const appName = useAppName()
  const { scheme, setScheme } = useColorScheme()
  const doSignOut = useSignOut()
  const close = () => setOpen(false)

  return (
    <>
      <Button
        type="text"
        icon={<MenuOutlined />}
        aria-label={t('shell.nav.openMenu')}
        aria-expanded={open}
        aria-controls="tern-mobile-nav"
        onClick={() => {
          setLanguage(hasLanguageCookie() ? locale : 'system')
          setOpen(true)
        }}
      />
      <Drawer
        open={open}
        onClose={close}
        placement="right"
        width={300}
        title={appName}
        closable={{ 'aria-label': t('shell.nav.closeMenu') }}
        id="tern-mobile-nav"
      >
        <nav aria-label={t('shell.nav.label')}>
          <Flex vertical gap={4}>
            {[...main, ...account].map((item) => (
              <NavButton key={item.key} item={item} active={path === item.href} block onNavigate={close} />
            ))}
            {user && (
              <Button type="text" block danger icon={<LogoutOutlined />} onClick={() => void doSignOut()} style={{ justifyContent: 'flex-start' }}>
                {t('shell.nav.signOut')}
              </Button>
            )}
          </Flex>
        </nav>
        <Divider />
        <Flex vertical gap={16}>
          <div>
            <Typography.Text strong id="tern-mobile-theme-label">
              {t('shell.theme.label')}
            </Typography.Text>
            <Segmented
              block
              aria-labelledby="tern-mobile-theme-label"
              style={{ marginTop: 8 }}
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
          <div>
            <Typography.Text strong id="tern-mobile-language-label">
              {t('shell.language.label')}
            </Typography.Text>
            <Select
              style={{ width: '100%', marginTop: 8 }}
              aria-labelledby="tern-mobile-language-label"
              value={language}
              onChange={(value: string) => saveLanguageAndReload(value)}
              options={[
                { value: 'system', label: t('shell.language.system') },
                ...LOCALES.map((entry) => ({ value: entry.code, label: entry.name })),
              ]}
            />
          </div>
        </Flex>
      </Drawer>
    </>
  )
}
