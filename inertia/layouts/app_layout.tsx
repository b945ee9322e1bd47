import { useEffect, useRef, type ReactNode } from 'react'
import { Layout } from 'antd'
import { router, usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { startSessionRefresh } from '~/lib/session'
import AppHeader from '~/components/shell/app_header'
import LegalFooter from '~/components/shell/legal_footer'

/**
 * Keeps the session alive in the browser (access-token refresh, see
 * ~/lib/session). When a refresh signs back in a page rendered for a
 * visitor (expired access token), the page's user is reloaded.
 */
function useSessionRefresh() {
  const { user } = usePage().props
  const signedIn = useRef(Boolean(user))
  // eslint-disable-next-line react-hooks/refs -- the refresh callback reads the latest user
  signedIn.current = Boolean(user)
  useEffect(() => {
    startSessionRefresh({
      onRefreshed: () => {
        if (!signedIn.current) router.reload({ only: ['user'] })
      },
    })
  }, [])
}

/**
 * The shell of every page except the admin panel: a skip link, the header
 * (height 60), the page container and the footer (legal links, when set).
 */
export default function AppLayout(props: { children?: ReactNode }) {
  const t = useTranslate()
  useSessionRefresh()
  return (
    <Layout className="tern-shell">
      <a className="tern-skip-link" href="#main-content">
        {t('shell.skipToContent')}
      </a>
      <AppHeader />
      <Layout.Content id="main-content" tabIndex={-1} className="tern-container">
        {props.children}
      </Layout.Content>
      <LegalFooter />
    </Layout>
  )
}
