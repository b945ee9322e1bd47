/**
 * The panel's Refine resources. `name` is the API path segment the data
 * provider uses (`users` → `/api/users`); `meta` carries the menu label and
 * icon and the data provider's hints (`listPath`, `oneFromList`). Plugin UIs
 * add theirs after the core ones.
 */
import type { ResourceProps } from '@refinedev/core'
import {
  BellOutlined,
  DashboardOutlined,
  FileZipOutlined,
  ImportOutlined,
  SettingOutlined,
  TeamOutlined,
  WarningOutlined,
} from '@ant-design/icons'
import type { TranslateFn } from '~/lib/i18n'
import { DirectionalIcon } from '~/lib/rtl'
import type { AdminResourceMeta } from '~/admin/providers/data_provider'
import type { AdminPluginUi } from '~/admin/plugins'
import { DEFAULT_CATEGORY } from '~/admin/resources/config'
import { DELIVERIES_PATH } from '~/admin/resources/deliveries/list'
import { NOTIFICATION_ROUTES_PATH } from '~/admin/resources/notification_routes/list'
import { PINGVIN_IMPORT_PATH } from '~/admin/pages/pingvin_import'

/** The resources of the panel and of the enabled plugins' UIs. */
export function adminResources(
  t: TranslateFn,
  plugins: readonly [string, AdminPluginUi][]
): ResourceProps[] {
  const core: ResourceProps[] = [
    {
      name: 'dashboard',
      list: '/',
      meta: { label: t('admin.landing.title'), icon: <DashboardOutlined /> },
    },
    {
      name: 'users',
      list: '/users',
      meta: {
        label: t('admin.users.title'),
        icon: <TeamOutlined />,
        oneFromList: true,
      } satisfies Record<string, unknown> & AdminResourceMeta,
    },
    {
      name: 'configs',
      list: '/config/:category',
      meta: {
        label: t('admin.config.title'),
        icon: <SettingOutlined />,
        category: DEFAULT_CATEGORY,
      },
    },
    {
      name: 'shares',
      list: '/shares',
      meta: {
        label: t('admin.shares.title'),
        icon: <FileZipOutlined />,
        listPath: 'shares/all',
      } satisfies Record<string, unknown> & AdminResourceMeta,
    },
    {
      name: NOTIFICATION_ROUTES_PATH,
      identifier: 'notification-routes',
      list: '/notifications',
      meta: { label: t('notification_settings.instance.title'), icon: <BellOutlined /> },
    },
    {
      name: DELIVERIES_PATH,
      identifier: 'deliveries',
      list: '/deliveries',
      meta: { label: t('admin.deliveries.title'), icon: <WarningOutlined /> },
    },
    {
      // A page of explanations (no API behind it): how to run `node ace pingvin:import`.
      name: 'pingvin-import',
      list: PINGVIN_IMPORT_PATH,
      meta: {
        label: t('admin.pingvin_import.menu'),
        icon: <DirectionalIcon icon={<ImportOutlined />} />,
      },
    },
  ]
  return [...core, ...plugins.flatMap(([, ui]) => ui.resources ?? [])]
}
