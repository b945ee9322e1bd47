/**
 * The burger menu's drawer for small screens, loaded on demand by
 * mobile_nav.tsx (see there).
 */
import { useContext } from 'react'
import { Button, ConfigProvider, Divider, Drawer, Flex } from 'antd'
import { LogoutOutlined } from '@ant-design/icons'
import { usePage } from '@inertiajs/react'
import { useI18n } from '~/lib/i18n'
import { useAppName } from '~/lib/config'
import { DirectionalIcon } from '~/lib/rtl'
import NavButton from '~/components/shell/nav_button'
import { useCurrentPath, useNavItems } from '~/components/shell/use_nav_items'
import { useSignOut } from '~/components/shell/user_menu'
import { ColorSchemeField, LanguageField } from '~/components/shell/preference_fields'

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
  const { t } = useI18n()
  const { user } = usePage().props
  const { main, account } = useNavItems()
  const path = useCurrentPath()
  const appName = useAppName()
  const doSignOut = useSignOut()
  // From the side of the burger button: the end of the header (the left in a right-to-left language).
  const { direction } = useContext(ConfigProvider.ConfigContext)
  return (
    <Drawer
      open={open}
      onClose={close}
      placement={direction === 'rtl' ? 'left' : 'right'}
      width={300}
      title={appName}
      closable={{ 'aria-label': t('shell.nav.closeMenu') }}
      id="tern-mobile-nav"
    >
      <nav aria-label={t('shell.nav.label')}>
        <Flex vertical gap={4}>
          {[...main, ...account].map((item) => (
            <NavButton
              key={item.key}
              item={item}
              active={path === item.href}
              block
              onNavigate={close}
            />
          ))}
          {user && (
            <Button
              type="text"
              block
              danger
              icon={<DirectionalIcon icon={<LogoutOutlined />} />}
              onClick={() => void doSignOut()}
              style={{ justifyContent: 'flex-start' }}
            >
              {t('shell.nav.signOut')}
            </Button>
          )}
        </Flex>
      </nav>
      <Divider />
      <Flex vertical gap={16}>
        <ColorSchemeField labelId="tern-mobile-theme-label" label={t('shell.theme.label')} block />
        <LanguageField
          labelId="tern-mobile-language-label"
          label={t('shell.language.label')}
          refreshKey={open}
        />
      </Flex>
    </Drawer>
  )
}
