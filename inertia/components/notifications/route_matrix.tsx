/**
 * The events x channels grid of the notification settings (My account and
 * the admin panel): one fieldset per group of events (its legend names the
 * group). From 576 px wide each group is a table, a row per event and a
 * column per channel; narrower, each event is a fieldset of its own with a
 * checkbox per channel, so a phone never scrolls sideways. A channel that
 * cannot carry an event has its box disabled, with the reason as a tooltip
 * (wide) or a line under it (narrow), and as the box's description for
 * screen readers. Every box is named "<channel>: <event>".
 */
import type { CSSProperties } from 'react'
import { Checkbox, Flex, Grid, Tooltip, Typography, theme } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import type {
  NotificationChannelOption as RoutableChannel,
  NotificationEventOption as RoutableEvent,
} from '#api/notifications'
import { groupEvents, routeKey, type RouteLabels } from '~/components/notifications/route_selection'

/** Props of `RouteMatrix`. */
export interface RouteMatrixProps {
  /** Prefix of the element ids (two matrices may share a page). */
  idPrefix: string
  events: readonly RoutableEvent[]
  channels: readonly RoutableChannel[]
  selected: ReadonlySet<string>
  labels: RouteLabels
  /** Why `channel` cannot carry `event`, or null when it can. */
  disabledReason: (event: string, channel: string) => string | null
  onToggle: (event: string, channel: string, checked: boolean) => void
  /** Disables every box (while saving). */
  busy?: boolean
}

/** Width of a channel's column in the table layout. */
const CHANNEL_COLUMN_WIDTH = '7.5em'

/** A box, its accessible name, and its reason when disabled. */
function RouteBox(
  props: RouteMatrixProps & { event: RoutableEvent; channel: RoutableChannel; wide: boolean }
) {
  const t = useTranslate()
  const { event, channel, labels } = props
  const reason = props.disabledReason(event.id, channel.name)
  const name = t('notification_settings.cell', {
    channel: labels.channel(channel.name),
    event: labels.event(event.id),
  })
  const reasonId = `${props.idPrefix}-${event.id}-${channel.name}-reason`.replace(/[^\w-]/g, '_')
  const visibleLabel = props.wide ? null : labels.channel(channel.name)
  if (reason) {
    const box = (
      <Checkbox disabled checked={false} aria-label={name} aria-describedby={reasonId}>
        {visibleLabel}
      </Checkbox>
    )
    return props.wide ? (
      <Tooltip title={reason}>
        <span
          data-disabled-route={`${event.id}:${channel.name}`}
          style={{ display: 'inline-block' }}
        >
          {box}
          <span id={reasonId} style={VISUALLY_HIDDEN}>
            {reason}
          </span>
        </span>
      </Tooltip>
    ) : (
      <Flex vertical data-disabled-route={`${event.id}:${channel.name}`}>
        {box}
        <Typography.Text
          id={reasonId}
          type="secondary"
          style={{ fontSize: 12, paddingInlineStart: 24 }}
        >
          {reason}
        </Typography.Text>
      </Flex>
    )
  }
  return (
    <Checkbox
      aria-label={name}
      checked={props.selected.has(routeKey(event.id, channel.name))}
      disabled={props.busy}
      onChange={(change) => props.onToggle(event.id, channel.name, change.target.checked)}
    >
      {visibleLabel}
    </Checkbox>
  )
}

/** One group as a table: events down, channels across. */
function GroupTable(
  props: RouteMatrixProps & { groupEvents: RoutableEvent[]; cellStyle: CSSProperties }
) {
  const t = useTranslate()
  const { cellStyle } = props
  return (
    <div style={{ overflowX: 'auto' }}>
      {/* Fixed channel columns line the groups' tables up under each other. */}
      <table
        style={{
          width: '100%',
          minWidth: `calc(14em + ${props.channels.length} * ${CHANNEL_COLUMN_WIDTH})`,
          borderCollapse: 'collapse',
          tableLayout: 'fixed',
        }}
      >
        <colgroup>
          <col />
          {props.channels.map((channel) => (
            <col key={channel.name} style={{ width: CHANNEL_COLUMN_WIDTH }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" style={{ ...cellStyle, textAlign: 'start' }}>
              {t('notification_settings.event')}
            </th>
            {props.channels.map((channel) => (
              <th
                key={channel.name}
                scope="col"
                style={{ ...cellStyle, textAlign: 'center', overflowWrap: 'anywhere' }}
              >
                {props.labels.channel(channel.name)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.groupEvents.map((event) => (
            <tr key={event.id}>
              <th scope="row" style={{ ...cellStyle, textAlign: 'start', fontWeight: 'normal' }}>
                {props.labels.event(event.id)}
              </th>
              {props.channels.map((channel) => (
                <td key={channel.name} style={{ ...cellStyle, textAlign: 'center' }}>
                  <RouteBox {...props} event={event} channel={channel} wide />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** One group as a list: an event, then its channels. */
function GroupList(
  props: RouteMatrixProps & { groupEvents: RoutableEvent[]; legendStyle: CSSProperties }
) {
  return (
    <Flex vertical gap={16}>
      {props.groupEvents.map((event) => (
        <fieldset key={event.id} style={{ border: 'none', margin: 0, padding: 0, minWidth: 0 }}>
          <legend style={{ ...props.legendStyle, fontSize: 14, fontWeight: 500, marginBottom: 4 }}>
            {props.labels.event(event.id)}
          </legend>
          <Flex wrap gap="4px 16px">
            {props.channels.map((channel) => (
              <RouteBox
                key={channel.name}
                {...props}
                event={event}
                channel={channel}
                wide={false}
              />
            ))}
          </Flex>
        </fieldset>
      ))}
    </Flex>
  )
}

/** See the module comment. */
export function RouteMatrix(props: RouteMatrixProps) {
  const { token } = theme.useToken()
  // Before the first measure (and on the server) `sm` is undefined: the list, which fits any width.
  const wide = Grid.useBreakpoint().sm === true
  const legendStyle: CSSProperties = {
    padding: '0 4px',
    width: 'auto',
    border: 'none',
    color: token.colorText,
    fontSize: 16,
    fontWeight: 600,
    whiteSpace: 'normal',
  }
  const cellStyle: CSSProperties = {
    padding: '8px',
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
  }
  return (
    <Flex
      vertical
      gap={16}
      data-testid={`${props.idPrefix}-matrix`}
      data-layout={wide ? 'table' : 'list'}
    >
      {groupEvents(props.events).map(({ group, events }) => (
        <fieldset
          key={group}
          style={{
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
            margin: 0,
            padding: wide ? '8px 16px 12px' : '8px 12px 12px',
            minWidth: 0,
          }}
        >
          <legend style={legendStyle}>{props.labels.group(group)}</legend>
          {wide ? (
            <GroupTable {...props} groupEvents={events} cellStyle={cellStyle} />
          ) : (
            <GroupList {...props} groupEvents={events} legendStyle={legendStyle} />
          )}
        </fieldset>
      ))}
    </Flex>
  )
}
