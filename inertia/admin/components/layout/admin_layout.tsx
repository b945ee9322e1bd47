/**
 * The panel's frame, without the app header or page container of the pages:
 * a sider with the title, the resources (Refine's `useMenu`) and sign-out,
 * and a header with the way back to the app (a full page load: the pages are
 * not part of this SPA) and who is signed in. antd menus are given `items`
 * (Refine's themed sider still renders `Menu.Item` children, which antd 5
 * reports as deprecated).
 *
 * On phones (below 768 px, CSS) the sider is gone: a menu button in the
 * header opens the same navigation in a drawer, which closes on Esc and after
 * navigating and gives the focus back to the button. Opened, the focus is on
 * the current page's entry.
 */
import { useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, ConfigProvider, Drawer, Layout, Menu, Space, Typography, theme } from 'antd'
import {
  ArrowLeftOutlined,
  LogoutOutlined,
  MenuOutlined,
  SettingOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons'
import { useGetIdentity, useLink, useLogout, useMenu, type TreeMenuItem } from '@refinedev/core'
import { useLocation } from 'react-router'
import { useTranslate } from '~/lib/i18n'
import { PHONE, useAdminStyles } from '~/admin/lib/styles'
import { DirectionalIcon } from '~/lib/rtl'

function menuItems(
  items: TreeMenuItem[],
  Link: ReturnType<typeof useLink>
): NonNullable<Parameters<typeof Menu>[0]['items']> {
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

/** The resources and sign-out, in the sider or the drawer. */
function AdminNavigation() {
  const t = useTranslate()
  const Link = useLink()
  const { menuItems: tree, selectedKey, defaultOpenKeys } = useMenu()
  const { mutate: logout } = useLogout()
  return (
    <nav aria-label={t('admin.layout.navigation')} className="tern-admin-nav">
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
            icon: <DirectionalIcon icon={<LogoutOutlined />} />,
            label: t('admin.layout.signOut'),
            onClick: () => logout(),
          },
        ]}
      />
    </nav>
  )
}

/** The sider: title, resources, sign-out (not on phones). */
function AdminSider(props: { appName: string }) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const Link = useLink()
  const [collapsed, setCollapsed] = useState(false)
  return (
    <Layout.Sider
      className="tern-admin-sider"
      collapsible
      collapsed={collapsed}
      onCollapse={setCollapsed}
      theme="light"
      breakpoint="lg"
      width={220}
      style={{
        backgroundColor: token.colorBgContainer,
        borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {/* eslint-disable-next-line react-hooks/static-components -- useLink gives refine's router Link, the same component each render */}
      <Link
        to="/"
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 10,
          height: 64,
          padding: '0 24px',
          color: 'inherit',
        }}
      >
        <SettingOutlined aria-hidden="true" style={{ color: token.colorPrimary, fontSize: 18 }} />
        {collapsed ? null : (
          <Typography.Text
            strong
            data-testid="admin-title"
            style={{ lineHeight: 1.3, overflowWrap: 'anywhere' }}
          >
            {t('admin.layout.title', { appName: props.appName })}
          </Typography.Text>
        )}
      </Link>
      <AdminNavigation />
    </Layout.Sider>
  )
}

/** The phones' menu button and its drawer with the navigation. */
function AdminDrawerMenu(props: { appName: string }) {
  const t = useTranslate()
  const { direction } = useContext(ConfigProvider.ConfigContext)
  const [open, setOpen] = useState(false)
  const navigation = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const { pathname } = useLocation()
  // Navigating (a menu link, the title) closes it.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- navigating closes the drawer
  useEffect(() => setOpen(false), [pathname])
  return (
    <>
      <Button
        ref={button}
        className="tern-admin-menu-button"
        type="text"
        icon={<MenuOutlined />}
        aria-label={t('admin.layout.openMenu')}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      />
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        placement={direction === 'rtl' ? 'right' : 'left'}
        width={280}
        title={t('admin.layout.title', { appName: props.appName })}
        styles={{ body: { padding: 0 } }}
        data-testid="admin-drawer"
        // Opened, the focus goes to the current page's entry (else the first): the next Tab is in the menu.
        // Closed, it comes back to the button unless it was put elsewhere (the hidden drawer leaves it on the body).
        afterOpenChange={(opened) => {
          const links = navigation.current
          if (opened)
            (
              links?.querySelector<HTMLElement>('.ant-menu-item-selected a') ??
              links?.querySelector<HTMLElement>('a')
            )?.focus()
          else if (
            document.activeElement === document.body ||
            links?.contains(document.activeElement)
          )
            button.current?.focus()
        }}
      >
        <div ref={navigation}>
          <AdminNavigation />
        </div>
      </Drawer>
    </>
  )
}

/** The header: the phones' menu button, back to the app, and who is signed in. */
function AdminHeader(props: { appName: string }) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const { data: identity } = useGetIdentity<{ name: string }>()
  return (
    <Layout.Header
      className="tern-admin-header"
      style={{
        backgroundColor: token.colorBgContainer,
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        height: 64,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <AdminDrawerMenu appName={props.appName} />
      <a href="/" style={{ flex: 'none' }}>
        <Space>
          <DirectionalIcon icon={<ArrowLeftOutlined aria-hidden="true" />} />
          {t('admin.layout.backToApp')}
        </Space>
      </a>
      {identity?.name ? (
        <Typography.Text
          strong
          data-testid="admin-identity"
          data-allow-clip
          title={identity.name}
          style={{
            marginInlineStart: 'auto',
            minWidth: 0,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {identity.name}
        </Typography.Text>
      ) : null}
    </Layout.Header>
  )
}

/** The layout around every page of the panel. */
export function AdminLayout(props: { appName: string; children: ReactNode }) {
  useAdminStyles('layout', () => ({
    '.ant-btn.tern-admin-menu-button': { display: 'none' },
    '.ant-layout .ant-layout-header.tern-admin-header': { paddingInline: 24 },
    '.ant-layout .ant-layout-content.tern-admin-content': { padding: 24 },
    // Long entries (Fehlgeschlagene Zustellungen, Недоставленные уведомления) wrap instead of being cut.
    '.tern-admin-nav .ant-menu-inline .ant-menu-item': {
      height: 'auto',
      minHeight: 40,
      lineHeight: '20px',
      paddingBlock: 10,
    },
    '.tern-admin-nav .ant-menu-inline .ant-menu-item .ant-menu-title-content': {
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
    },
    [PHONE]: {
      '.ant-layout .ant-layout-sider.tern-admin-sider': { display: 'none' },
      '.ant-btn.tern-admin-menu-button': { display: 'inline-flex', flex: 'none' },
      '.ant-layout .ant-layout-header.tern-admin-header': { paddingInline: 12 },
      '.ant-layout .ant-layout-content.tern-admin-content': { padding: 12 },
    },
  }))
  return (
    <Layout style={{ minHeight: '100vh' }} hasSider>
      <AdminSider appName={props.appName} />
      <Layout style={{ minWidth: 0 }}>
        <AdminHeader appName={props.appName} />
        {/* antd's Content is the page's <main> landmark: no second one inside it. */}
        <Layout.Content className="tern-admin-content">{props.children}</Layout.Content>
      </Layout>
    </Layout>
  )
}
