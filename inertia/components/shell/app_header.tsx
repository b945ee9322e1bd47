import { Layout } from 'antd'
// eslint-disable-next-line @adonisjs/prefer-adonisjs-inertia-link -- its typed Link needs a TuyauProvider, which the pages do not have yet
import { Link, usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { useAppName } from '~/lib/config'
import { paths } from '~/lib/links'
import NavButton from '~/components/shell/nav_button'
import ThemeMenu from '~/components/shell/theme_menu'
import LanguageMenu from '~/components/shell/language_menu'
import UserMenu from '~/components/shell/user_menu'
import MobileNav from '~/components/shell/mobile_nav'
import { useCurrentPath, useNavItems } from '~/components/shell/use_nav_items'

/**
 * The header of every page (height 60): logo and app name, the links the
 * settings allow, colour scheme and language controls, the avatar menu of
 * signed-in users; a burger menu on small screens.
 */
export default function AppHeader() {
  const t = useTranslate()
  const appName = useAppName()
  const { user } = usePage().props
  const { main } = useNavItems()
  const path = useCurrentPath()

  return (
    <Layout.Header className="tern-header">
      <Link href={paths.home} className="tern-brand">
        <img src="/img/logo.png" alt="" width={36} height={36} />
        <span className="tern-brand-name">{appName}</span>
      </Link>
      <nav aria-label={t('shell.nav.label')} className="tern-only-desktop tern-nav">
        <ul>
          {main.map((item) => (
            <li key={item.key}>
              <NavButton item={item} active={path === item.href} />
            </li>
          ))}
        </ul>
      </nav>
      <div className="tern-header-actions">
        <span className="tern-only-desktop">
          <ThemeMenu />
        </span>
        <span className="tern-only-desktop">
          <LanguageMenu />
        </span>
        {user && (
          <span className="tern-only-desktop">
            <UserMenu />
          </span>
        )}
        <span className="tern-only-mobile">
          <MobileNav />
        </span>
      </div>
    </Layout.Header>
  )
}
