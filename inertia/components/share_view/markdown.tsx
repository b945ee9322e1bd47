/**
 * The Markdown preview of a shared file. The renderer (react-markdown with
 * GitHub tables, see `markdown_renderer.tsx`) is loaded only when a preview
 * opens, so the share page does not carry it; a spinner shows meanwhile.
 */
import { lazy, Suspense } from 'react'
import { Spin } from 'antd'
import type { MarkdownProps } from '~/components/share_view/markdown_renderer'

export type { MarkdownProps }

const MarkdownRenderer = lazy(() => import('~/components/share_view/markdown_renderer'))

/** A Markdown document rendered safely: raw HTML as text, http(s) links only. */
export default function Markdown(props: MarkdownProps) {
  return (
    <Suspense fallback={<Spin />}>
      <MarkdownRenderer {...props} />
    </Suspense>
  )
}
