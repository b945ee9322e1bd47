/**
 * The panel's frame, without the app header or page container of the pages:
 * a sider with the title, the resources (Refine's `useMenu`) and sign-out,
 * and a header with the way back to the app (a full page load: the pages are
 * not part of this SPA) and who is signed in. antd menus are given `items`
 * (Refine's themed sider still renders `Menu.Item` children, which antd 5
 * reports as deprecated).
 */
import { useState, type ReactNode } from 'react'
import { Layout, Menu, Space, Typography, theme } from 'antd'
import { ArrowLeftOutlined, LogoutOutlined, SettingOutlined, UnorderedListOutlined } from '@ant-design/icons'
import { useGetIdentity, useLink, useLogout, useMenu, type TreeMenuItem } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'

function menuItems(items: TreeMenuItem[], Link: ReturnType<typeof useLink>): NonNullable<Parameters<typeof Menu>[0]['items']> {
  return items.map((item) =>
    item.children.length > 0
      ? {
          key: item.key,
          icon: (item.meta?.icon as ReactNode) ?? <UnorderedListOutlined />,
          label: item.label,
          children: menuItems(item.children, Link),
        }
      : {
          key: item.key,
          icon: (item.meta?.icon as ReactNode) ?? <UnorderedListOutlined />,
          label: <Link to={item.route ?? '/'}>{item.label}</Link>,
        }
  )
}

/** The sider: title, resources, sign-out. */
function AdminSider(props: { appName: string }) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const Link = useLink()
  const { menuItems: tree, selectedKey, defaultOpenKeys } = useMenu()
  const { mutate: logout } = useLogout()
  const [collapsed, setCollapsed] = useState(false)
  return (
    <Layout.Sider
      collapsible
      collapsed={collapsed}
      onCollapse={setCollapsed}
      theme="light"
      breakpoint="lg"
      width={220}
      style={{ backgroundColor: token.colorBgContainer, borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}
    >
      <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 10, height: 64, padding: '0 24px', color: 'inherit' }}>
        <SettingOutlined aria-hidden="true" style={{ color: token.colorPrimary, fontSize: 18 }} />
        {collapsed ? null : (
          <Typography.Text strong data-testid="admin-title" ellipsis>
            {t('admin.layout.title', { appName: props.appName })}
          </Typography.Text>
        )}
      </Link>
      <nav aria-label={t('admin.layout.navigation')}>
        <Menu
          mode="inline"
          style={{ border: 'none' }}
          selectedKeys={selectedKey ? [selectedKey] : []}
          defaultOpenKeys={defaultOpenKeys}
          items={[
            ...menuItems(tree, Link),
            { type: 'divider' },
            {
              key: 'logout',
              icon: <LogoutOutlined />,
              label: t('admin.layout.signOut'),
              onClick: () => logout(),
            },
          ]}
        />
      </nav>
    </Layout.Sider>
  )
}

/** The header: back to the app, and who is signed in. */
function AdminHeader() {
  const t = useTranslate()
  const { token } = theme.useToken()
  const { data: identity } = useGetIdentity<{ name: string }>()
  return (
    <Layout.Header
      style={{
        backgroundColor: token.colorBgContainer,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        padding: '0 24px',
        height: 64,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <a href="/">
        <Space>
          <ArrowLeftOutlined aria-hidden="true" />
          {t('admin.layout.backToApp')}
        </Space>
      </a>
      {identity?.name ? (
        <Typography.Text strong data-testid="admin-identity">
          {identity.name}
        </Typography.Text>
      ) : null}
    </Layout.Header>
  )
}

/** The layout around every page of the panel. */
export function AdminLayout(props: { appName: string; children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh' }} hasSider>
      <AdminSider appName={props.appName} />
      <Layout>
        <AdminHeader />
        <Layout.Content style={{ padding: 24 }}>
          <main>{props.children}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  )
}
