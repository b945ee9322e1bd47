import { usePage } from '@inertiajs/react'
import { useConfig } from '~/lib/config'
import { useTranslate } from '~/lib/i18n'
import { paths } from '~/lib/links'
import { withRedirect } from '~/components/auth/auth_paths'

/** A link of the shell. */
export interface NavItem {
  key: string
  href: string
  label: string
  /** Leaves the Inertia app (full page load), e.g. the admin panel. */
  external?: boolean
}

/**
 * The links the header shows, as the settings and the user allow:
 * - visitors: Home (general.showHomePage), Upload
 *   (share.allowUnauthenticatedShares), Sign in, Sign up (share.allowRegistration);
 * - signed-in users: Upload, My shares, Reverse shares; and in the avatar
 *   menu My account and Administration (admins).
 */
export function useNavItems(): { main: NavItem[]; account: NavItem[] } {
  const t = useTranslate()
  const config = useConfig()
  const page = usePage()
  const { user } = page.props
  const current = useCurrentPath()
  // Signing in or up from a page (a share, My shares...) comes back to it; from home or an auth page, to Upload.
  const comeBack =
    current === '/' || current.startsWith('/auth/') || current === '/error' ? null : page.url
  const main: NavItem[] = []
  const account: NavItem[] = []

  if (user) {
    main.push({ key: 'upload', href: paths.upload, label: t('shell.nav.upload') })
    main.push({ key: 'myShares', href: paths.myShares, label: t('shell.nav.myShares') })
    main.push({
      key: 'reverseShares',
      href: paths.reverseShares,
      label: t('shell.nav.reverseShares'),
    })
    account.push({ key: 'account', href: paths.account, label: t('shell.nav.account') })
    if (user.isAdmin) {
      account.push({ key: 'admin', href: paths.admin, label: t('shell.nav.admin'), external: true })
    }
  } else {
    if (config.boolean('general.showHomePage', true)) {
      main.push({ key: 'home', href: paths.home, label: t('shell.nav.home') })
    }
    if (config.boolean('share.allowUnauthenticatedShares', false)) {
      main.push({ key: 'upload', href: paths.upload, label: t('shell.nav.upload') })
    }
    main.push({
      key: 'signIn',
      href: withRedirect(paths.signIn, comeBack),
      label: t('shell.nav.signIn'),
    })
    if (config.boolean('share.allowRegistration', true)) {
      main.push({
        key: 'signUp',
        href: withRedirect(paths.signUp, comeBack),
        label: t('shell.nav.signUp'),
      })
    }
  }
  return { main, account }
}

/** The path of the current page, without query string or hash. */
export function useCurrentPath(): string {
  const { url } = usePage()
  return url.split(/[?#]/)[0] || '/'
}
