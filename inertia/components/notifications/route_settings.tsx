/**
 * Loading, editing and saving a set of notification routes, for My account
 * (the user's own routes) and the admin panel (the instance's): a skeleton
 * while loading, the load error with a retry, the empty state when no
 * channel can be used, the grid of `RouteMatrix`, and a save button enabled
 * by a change. Saving replaces the whole set; success is announced, and the
 * API's message for a refused set (400) stays above the grid.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { App, Button, Flex, Typography } from 'antd'
import { useTranslate } from '~/lib/i18n'
import FormError from '~/components/auth/form_error'
import { EmptyList, ListSkeleton, LoadErrorAlert } from '~/components/account/list_states'
import { RouteMatrix } from '~/components/notifications/route_matrix'
import {
  useRouteLabels,
  useRouteSelection,
  type Route,
  type RouteLabels,
} from '~/components/notifications/route_selection'
import type {
  NotificationChannelOption as RoutableChannel,
  NotificationRouting as RoutesView,
} from '#api/notifications'

/** Whether `channel` lists `event` among those it can deliver (no list: every event). */
export function canDeliver(channel: RoutableChannel, event: string): boolean {
  return !Array.isArray(channel.events) || (channel.events as readonly string[]).includes(event)
}

/** Props of `RouteSettings`. */
export interface RouteSettingsProps {
  idPrefix: string
  /** Wording of the event labels (see `useRouteLabels`). */
  audience: 'user' | 'instance'
  load: () => Promise<RoutesView>
  /** Replaces the routes; resolves to the saved state. */
  save: (routes: Route[]) => Promise<RoutesView>
  errorText: (error: unknown) => string
  /** The channels shown as columns (default: all). */
  channels?: (view: RoutesView) => RoutableChannel[]
  /** Why `channel` cannot carry `event`, or null. */
  disabledReason: (channel: RoutableChannel, event: string, labels: RouteLabels) => string | null
  texts: { loading: string; emptyTitle: string; emptyText: string; save: string; saved: string }
  /** Shown in the empty state (a link to the configuration, ...). */
  emptyAction?: ReactNode
}

/** See the module comment. */
export function RouteSettings(props: RouteSettingsProps) {
  const t = useTranslate()
  const { notification } = App.useApp()
  const labels = useRouteLabels(props.audience)
  const selection = useRouteSelection()
  const { load, errorText, save } = props
  const resetSelection = selection.reset
  const [view, setView] = useState<RoutesView | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saveError, setSaveError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const show = useCallback(
    (next: RoutesView) => {
      setView(next)
      resetSelection(next.routes)
    },
    [resetSelection]
  )
  const reload = useCallback(async () => {
    try {
      show(await load())
      setLoadError(null)
    } catch (error) {
      setLoadError(errorText(error))
    }
  }, [errorText, load, show])
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    void reload()
  }, [reload])

  const channels = view ? (props.channels?.(view) ?? view.channels) : []
  const reasonOf = (event: string, channelName: string) => {
    const channel = channels.find((entry) => entry.name === channelName)
    return channel ? props.disabledReason(channel, event, labels) : null
  }

  const submit = async () => {
    setSaving(true)
    setSaveError(null)
    try {
      show(await save(selection.routes((event, channel) => reasonOf(event, channel) === null)))
      notification.success({ message: props.texts.saved })
    } catch (error) {
      setSaveError(errorText(error))
    } finally {
      setSaving(false)
    }
  }

  if (!view) {
    return loadError ? (
      <LoadErrorAlert
        error={loadError}
        retryLabel={t('notification_settings.retry')}
        onRetry={() => void reload()}
      />
    ) : (
      <ListSkeleton label={props.texts.loading} />
    )
  }
  if (channels.length === 0 || view.events.length === 0) {
    return (
      <EmptyList
        testId={`${props.idPrefix}-empty`}
        title={props.texts.emptyTitle}
        text={props.texts.emptyText}
      >
        {props.emptyAction}
      </EmptyList>
    )
  }
  return (
    <Flex vertical gap={16}>
      <FormError error={saveError} onClose={() => setSaveError(null)} />
      <RouteMatrix
        idPrefix={props.idPrefix}
        events={view.events}
        channels={channels}
        selected={selection.selected}
        labels={labels}
        disabledReason={reasonOf}
        onToggle={selection.toggle}
        busy={saving}
      />
      <Flex wrap align="center" gap={12}>
        <Button
          type="primary"
          loading={saving}
          disabled={!selection.dirty}
          onClick={() => void submit()}
        >
          {props.texts.save}
        </Button>
        <Typography.Text type="secondary" aria-live="polite">
          {selection.dirty ? t('notification_settings.unsaved') : ''}
        </Typography.Text>
      </Flex>
    </Flex>
  )
}
