/**
 * Notifications (`/admin/notifications`): which events the instance sends to
 * the destinations an administrator configured for each channel (webhook
 * URLs, an ntfy topic, ...), as a grid of events x channels
 * (`GET`/`PUT /api/notifications/routes`). A channel that only reaches single
 * users (e-mail) or cannot carry an event has its boxes disabled with the
 * reason. With no channel enabled the page says how to get one.
 */
import { useCallback } from 'react'
import { Alert, Button } from 'antd'
import { List } from '@refinedev/antd'
import { useGo } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { adminHttp } from '~/admin/lib/http'
import { useAdminErrorText } from '~/admin/lib/errors'
import { apiUrl } from '~/lib/api_url'
import { canDeliver, RouteSettings } from '~/components/notifications/route_settings'
import type { Route } from '~/components/notifications/route_selection'
import type { NotificationRouting } from '#api/notifications'

/** The API path of the instance routes (the Refine resource name). */
export const NOTIFICATION_ROUTES_PATH = 'notifications/routes'

const ROUTES_URL = apiUrl('notifications.routes.show')

/** The page (see the module comment). */
export function NotificationRouteList() {
  const t = useTranslate()
  const go = useGo()
  const errorText = useAdminErrorText()
  const load = useCallback(() => adminHttp.get<NotificationRouting>(ROUTES_URL), [])
  const save = useCallback(
    (routes: Route[]) => adminHttp.request<NotificationRouting>('PUT', ROUTES_URL, { routes }),
    []
  )
  return (
    <List title={t('notification_settings.instance.title')} breadcrumb={false}>
      <Alert
        type="info"
        showIcon
        message={t('notification_settings.instance.intro')}
        style={{ marginBottom: 16 }}
      />
      <RouteSettings
        idPrefix="admin-notifications"
        audience="instance"
        load={load}
        save={save}
        errorText={errorText}
        disabledReason={(channel, event, labels) => {
          const name = labels.channel(channel.name)
          if (channel.targets?.instance === false)
            return t('notification_settings.reasons.userOnly', { channel: name })
          return canDeliver(channel, event)
            ? null
            : t('notification_settings.reasons.cannotDeliver', { channel: name })
        }}
        texts={{
          loading: t('notification_settings.instance.loading'),
          emptyTitle: t('notification_settings.instance.emptyTitle'),
          emptyText: t('notification_settings.instance.emptyText'),
          save: t('notification_settings.save'),
          saved: t('notification_settings.saved'),
        }}
        emptyAction={
          <Button onClick={() => go({ to: '/config' })}>
            {t('notification_settings.instance.openConfig')}
          </Button>
        }
      />
    </List>
  )
}
