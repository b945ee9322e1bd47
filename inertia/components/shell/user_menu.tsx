import type { ReactNode } from 'react'
import { App, Button } from 'antd'
import { LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons'
import { router, usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { DirectionalIcon } from '~/lib/rtl'
import { signOut } from '~/lib/auth'
import { useNavItems } from '~/components/shell/use_nav_items'
import DeferredDropdown from '~/components/shell/deferred_dropdown'

/**
 * Runs the sign-out and tells the user when the server refused.
 */
export function useSignOut() {
  const t = useTranslate()
  const { notification } = App.useApp()
  return async () => {
    if (!(await signOut())) notification.error({ message: t('shell.signOutFailed') })
  }
}

/** The avatar menu of signed-in users: My account, Administration, Sign out. */
export default function UserMenu() {
  const t = useTranslate()
  const { user } = usePage().props
  const { account } = useNavItems()
  const doSignOut = useSignOut()
  if (!user) return null

  const icons: Record<string, ReactNode> = { account: <UserOutlined />, admin: <SettingOutlined /> }
  return (
    <DeferredDropdown
      autoFocus
      menu={{
        items: [
          ...account.map((item) => ({ key: item.key, label: item.label, icon: icons[item.key] })),
          { type: 'divider' as const },
          {
            key: 'signOut',
            label: t('shell.nav.signOut'),
            icon: <DirectionalIcon icon={<LogoutOutlined />} />,
            danger: true,
          },
        ],
        onClick: ({ key }) => {
          if (key === 'signOut') return void doSignOut()
          const item = account.find((entry) => entry.key === key)
          if (!item) return
          if (item.external) window.location.assign(item.href)
          else router.visit(item.href)
        },
      }}
    >
      <Button
        type="text"
        shape="circle"
        aria-label={t('shell.nav.userMenu', { username: user.username })}
        data-testid="user-menu"
        icon={
          // An antd Avatar's look without Avatar, whose Avatar.Group brings Popover and
          // Tooltip to every page.
          <span
            aria-hidden="true"
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              width: 32,
              height: 32,
              borderRadius: '50%',
              backgroundColor: '#1677ff',
              color: '#fff',
              fontSize: 14,
              lineHeight: 1,
            }}
          >
            {user.username.slice(0, 1).toUpperCase()}
          </span>
        }
      />
    </DeferredDropdown>
  )
}
