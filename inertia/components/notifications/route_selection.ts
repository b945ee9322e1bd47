/**
 * What the notification settings of My account and of the admin panel share:
 * the events grouped for display (shares, reverse shares, account), their
 * labels in the page's language, and the ticked routes being edited.
 */
import { useCallback, useMemo, useState } from 'react'
import { useI18n } from '~/lib/i18n'
import type { NotificationEventOption, NotificationRoutesUpdate } from '#api/notifications'

/** A route as the PUT body carries it. */
export type Route = NotificationRoutesUpdate['routes'][number]

/** The groups the events are shown in, in this order. */
export const EVENT_GROUPS = ['shares', 'reverseShares', 'account'] as const

/** One group of events. */
export type EventGroup = (typeof EVENT_GROUPS)[number]

/** The group of an event id (`share.*`, `reverse_share.*`, the rest). */
export function groupOf(eventId: string): EventGroup {
  if (eventId.startsWith('share.')) return 'shares'
  if (eventId.startsWith('reverse_share.')) return 'reverseShares'
  return 'account'
}

/** The events by group, in the server's order inside a group; empty groups are left out. */
export function groupEvents<E extends NotificationEventOption>(
  events: readonly E[]
): { group: EventGroup; events: E[] }[] {
  return EVENT_GROUPS.map((group) => ({
    group,
    events: events.filter((event) => groupOf(event.id) === group),
  })).filter((entry) => entry.events.length > 0)
}

/** The key of a route in a selection. */
export function routeKey(event: string, channel: string): string {
  return `${event}\u0000${channel}`
}

/**
 * Labels in the page's language. `audience` picks the wording: `user` speaks
 * to the owner ("When someone downloads one of my shares"), `instance` to the
 * administrator ("A share is downloaded"). Events and channels the catalogue
 * does not know (a plugin's) show their id.
 */
export function useRouteLabels(audience: 'user' | 'instance') {
  const { t, messages } = useI18n()
  return useMemo(() => {
    const known = (key: string, fallback: string) =>
      messages[key] === undefined ? fallback : t(key)
    return {
      event: (id: string) => known(`notification_settings.events.${audience}.${id}`, id),
      channel: (name: string) => known(`notification_settings.channels.${name}`, name),
      group: (group: EventGroup) => t(`notification_settings.groups.${group}`),
    }
  }, [audience, messages, t])
}

/** The labels `useRouteLabels` returns. */
export type RouteLabels = ReturnType<typeof useRouteLabels>

/**
 * The ticked routes: `reset` with the server's routes, `toggle` one, `dirty`
 * while they differ from the last reset, `routes()` for the PUT body.
 */
export function useRouteSelection() {
  const [saved, setSaved] = useState<ReadonlySet<string>>(new Set())
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const reset = useCallback((routes: readonly Route[]) => {
    const next = new Set(routes.map((route) => routeKey(route.event, route.channel)))
    setSaved(next)
    setSelected(next)
  }, [])
  const toggle = useCallback((event: string, channel: string, checked: boolean) => {
    setSelected((current) => {
      const next = new Set(current)
      if (checked) next.add(routeKey(event, channel))
      else next.delete(routeKey(event, channel))
      return next
    })
  }, [])
  const dirty = saved.size !== selected.size || [...selected].some((key) => !saved.has(key))
  const routes = useCallback(
    (allowed: (event: string, channel: string) => boolean): Route[] =>
      [...selected]
        .map((key) => {
          const [event, channel] = key.split('\u0000')
          return { event, channel }
        })
        .filter((route) => allowed(route.event, route.channel)),
    [selected]
  )
  return { selected, reset, toggle, dirty, routes }
}
