/**
 * antd's Tooltip for the icon buttons of a visitor's share page (file
 * actions, copy link), loaded the first time the pointer rests on one of
 * them (Tooltip brings @rc-component/trigger, its portal and
 * resize observers, about 20 KB brotli, that a visitor who only downloads
 * never uses; the buttons keep their accessible names without it).
 *
 * The button is never rendered again for it (it keeps its focus, and a modal
 * it opens gives the focus back to it): it sits in a wrapper that follows the
 * pointer, and once antd's Tooltip is there it is anchored to an empty box
 * laid over the button, opened while the pointer is on the wrapper (hover, as
 * antd's default trigger).
 */
import { useState, type ReactNode } from 'react'
import type AntTooltip from '~/lib/antd_tooltip'

const loadTooltip = () => import('~/lib/antd_tooltip')

export default function DeferredTooltip(props: { title: ReactNode; children: ReactNode }) {
  const [Tooltip, setTooltip] = useState<typeof AntTooltip | null>(null)
  const [hover, setHover] = useState(false)
  return (
    <span
      style={{ position: 'relative', display: 'inline-flex' }}
      onPointerEnter={() => {
        setHover(true)
        if (!Tooltip) void loadTooltip().then((module) => setTooltip(() => module.default))
      }}
      onPointerLeave={() => setHover(false)}
    >
      {props.children}
      {Tooltip && (
        <Tooltip title={props.title} open={hover}>
          <span
            aria-hidden="true"
            style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
          />
        </Tooltip>
      )}
    </span>
  )
}
