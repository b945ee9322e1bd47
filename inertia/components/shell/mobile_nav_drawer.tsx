/**
 * The burger menu's drawer for small screens, loaded on demand by
 * mobile_nav.tsx (see there).
 */
import { useEffect, useState } from 'react'
import { Button, Divider, Drawer, Flex, Segmented, Select, Typography } from 'antd'
import { LogoutOutlined } from '@ant-design/icons'
import { usePage } from '@inertiajs/react'
import { useI18n } from '~/lib/i18n'
import { useColorScheme } from '~/lib/theme'
import { isColorScheme, saveLanguageAndReload } from '~/lib/preferences'
import { useAppName } from '~/lib/config'
import NavButton from '~/components/shell/nav_button'
import { useCurrentPath, useNavItems } from '~/components/shell/use_nav_items'
import { useSignOut } from '~/components/shell/user_menu'
import { hasLanguageCookie } from '~/components/shell/language_menu'
import { LOCALES } from '../../../start/locales'

/** Props of {@link MobileNavDrawer}. */
export interface MobileNavDrawerProps {
  open: boolean
  onClose(): void
}

/**
 * The drawer of the burger menu (small screens): every link of the header,
 * the colour scheme and the language. Loaded on the first click of the
 * burger (see mobile_nav), so Drawer, Select and Segmented stay out of the
 * JavaScript every page loads.
 */
export default function MobileNavDrawer({ open, onClose: close }: MobileNavDrawerProps) {
  const { t, locale } = useI18n()
  // The choice shown is read when the drawer opens: the language cookie, else "browser language".
  const [language, setLanguage] = useState(locale)
  useEffect(() => {
    if (open) setLanguage(hasLanguageCookie() ? locale : 'system')
  }, [open, locale])
  const { user } = usePage().props
  const { main, account } = useNavItems()
  const path = useCurrentPath()
  const appName = useAppName()
  const { scheme, setScheme } = useColorScheme()
  const doSignOut = useSignOut()
  return (
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
  )
}
