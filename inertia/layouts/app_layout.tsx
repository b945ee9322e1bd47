import type { ReactNode } from 'react'
import { Layout } from 'antd'
import { useTranslate } from '~/lib/i18n'
import AppHeader from '~/components/shell/app_header'

/**
 * The shell of every page except the admin panel: a skip link, the header
 * (height 60) and the page container.
 */
export default function AppLayout(props: { children?: ReactNode }) {
  const t = useTranslate()
  return (
    <Layout className="tern-shell">
      <a className="tern-skip-link" href="#main-content">
        {t('shell.skipToContent')}
      </a>
      <AppHeader />
      <Layout.Content id="main-content" tabIndex={-1} className="tern-container">
        {props.children}
      </Layout.Content>
    </Layout>
  )
}
