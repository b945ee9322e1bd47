import { Button } from 'antd'
import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { useColorScheme } from '~/lib/theme'
import { isColorScheme } from '~/lib/preferences'
import type { ColorScheme } from '~/types/page_props'
import DeferredDropdown from '~/components/shell/deferred_dropdown'

const SCHEMES: ColorScheme[] = ['light', 'dark', 'system']
const ICONS = { light: <SunOutlined />, dark: <MoonOutlined />, system: <DesktopOutlined /> }

/** Header button with a menu to choose light, dark or system colours. */
export default function ThemeMenu() {
  const t = useTranslate()
  const { scheme, resolved, setScheme } = useColorScheme()
  return (
    <DeferredDropdown
      autoFocus
      menu={{
        selectable: true,
        selectedKeys: [scheme],
        items: SCHEMES.map((key) => ({ key, icon: ICONS[key], label: t(`shell.theme.${key}`) })),
        onClick: ({ key }) => {
          if (isColorScheme(key)) setScheme(key)
        },
      }}
    >
      <Button
        type="text"
        icon={resolved === 'dark' ? <MoonOutlined /> : <SunOutlined />}
        aria-label={t('shell.theme.current', { scheme: t(`shell.theme.${scheme}`) })}
        title={t('shell.theme.label')}
        data-testid="theme-menu"
      />
    </DeferredDropdown>
  )
}
