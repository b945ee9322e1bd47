import { useCallback } from 'react'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import SectionCard from '~/components/account/section_card'
import { canDeliver, RouteSettings } from '~/components/notifications/route_settings'
import type { Route } from '~/components/notifications/route_selection'
import type { NotificationRouting } from '#api/notifications'

/**
 * Notifications of My account (`GET`/`PUT /api/user/notifications`): which
 * events of the user's own shares, reverse shares and account reach him
 * through which channel ("E-mail: When someone downloads one of my shares").
 * Only channels that can reach one user are offered; when there is none the
 * card says to ask the administrator.
 */
export default function NotificationSettingsCard() {
  const t = useTranslate()
  const errorText = useErrorText()
  const load = useCallback(() => api.get<NotificationRouting>(apiPaths.userNotifications), [])
  const save = useCallback(
    (routes: Route[]) => api.put<NotificationRouting>(apiPaths.userNotifications, { routes }),
    []
  )
  return (
    <SectionCard
      id="notifications"
      title={t('notification_settings.user.title')}
      description={t('notification_settings.user.description')}
    >
      <RouteSettings
        idPrefix="account-notifications"
        audience="user"
        load={load}
        save={save}
        errorText={errorText}
        channels={(view) => view.channels.filter((channel) => channel.targets?.user !== false)}
        disabledReason={(channel, event, labels) =>
          canDeliver(channel, event)
            ? null
            : t('notification_settings.reasons.cannotDeliver', {
                channel: labels.channel(channel.name),
              })
        }
        texts={{
          loading: t('notification_settings.user.loading'),
          emptyTitle: t('notification_settings.user.emptyTitle'),
          emptyText: t('notification_settings.user.emptyText'),
          save: t('notification_settings.save'),
          saved: t('notification_settings.saved'),
        }}
      />
    </SectionCard>
  )
}
