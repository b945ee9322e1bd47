/**
 * The webhook plugin's part of the admin panel (admin-panel extension
 * point, `inertia/admin/plugins.ts`): a menu entry and the page listing the
 * webhook channel's deliveries. The menu label is Refine's translation of
 * the resource (`admin.webhook.webhook`, resources/lang/<locale>/admin/webhook.json).
 */
import { ApiOutlined } from '@ant-design/icons'
import type { AdminPluginUi } from '~/admin/plugins'
import { WebhookDeliveriesPage } from './deliveries_page'

/** The page's path below `/admin`. */
export const WEBHOOK_DELIVERIES_PATH = 'plugins/webhook/deliveries'

export const adminPlugin: AdminPluginUi = {
  resources: [
    {
      name: 'webhook',
      identifier: 'webhook-deliveries',
      list: `/${WEBHOOK_DELIVERIES_PATH}`,
      meta: { icon: <ApiOutlined /> },
    },
  ],
  routes: [{ path: WEBHOOK_DELIVERIES_PATH, element: <WebhookDeliveriesPage /> }],
}
