/**
 * The Markdown renderer of the file preview: CommonMark and GitHub's
 * extensions (tables, strikethrough, task lists, autolinks) through
 * react-markdown and remark-gfm, as React elements (it renders the same on the
 * server and in the browser). Pages use it through `markdown.tsx`, which loads
 * it only when a preview opens.
 *
 * It is safe for untrusted files: raw HTML (`<script>`, `<img onerror>`, ...)
 * is shown as text, never parsed; links keep only absolute http(s) URLs (a
 * `javascript:`, `data:` or relative link becomes plain text) and open in a
 * new tab with `rel="noopener noreferrer nofollow"`; images are shown as links
 * to their URL, so a preview never loads anything by itself.
 */
import { useMemo, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { theme } from 'antd'

/** The URL when it is absolute http(s), else undefined (the link or image is then dropped). */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url.trim())
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined
  } catch {
    return undefined
  }
}

const REMARK_PLUGINS = [remarkGfm]

/** A link to `href` in a new tab, or its text alone when `href` was dropped. */
function SafeLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (!href) return <span>{children}</span>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  )
}

/** Props of {@link MarkdownRenderer}. */
export interface MarkdownProps {
  source: string
  className?: string
}

/** A Markdown document rendered safely (see the module comment). */
export default function MarkdownRenderer(props: MarkdownProps) {
  const { token } = theme.useToken()
  const components = useMemo<Components>(() => {
    const cell = { border: `1px solid ${token.colorBorderSecondary}`, padding: '4px 8px' }
    return {
      a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
      img: ({ src, alt }) => (
        <SafeLink href={typeof src === 'string' ? src : undefined}>{alt || src}</SafeLink>
      ),
      table: ({ node: _node, ...rest }) => (
        <div style={{ overflowX: 'auto' }}>
          <table {...rest} style={{ borderCollapse: 'collapse', marginBottom: '1em' }} />
        </div>
      ),
      th: ({ node: _node, style, ...rest }) => (
        <th {...rest} style={{ ...cell, ...style, background: token.colorFillAlter }} />
      ),
      td: ({ node: _node, style, ...rest }) => <td {...rest} style={{ ...cell, ...style }} />,
    }
  }, [token.colorBorderSecondary, token.colorFillAlter])
  return (
    <div className={props.className}>
      <ReactMarkdown remarkPlugins={REMARK_PLUGINS} urlTransform={safeHref} components={components}>
        {props.source}
      </ReactMarkdown>
    </div>
  )
}
