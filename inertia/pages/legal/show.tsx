import { theme } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
// Not the lazy `markdown.tsx`: the text is the whole page, so it is rendered on the server too.
import MarkdownRenderer from '~/components/share_view/markdown_renderer'

/**
 * The imprint (`/imprint`) or privacy policy (`/privacy`): the Markdown text
 * an admin set in the Legal settings, rendered like a shared Markdown file
 * (raw HTML shown as text, http(s) links only).
 */
export default function LegalShow(props: { page: 'imprint' | 'privacy'; text: string }) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const title = t(props.page === 'imprint' ? 'legal.imprint.title' : 'legal.privacy.title')
  return (
    <>
      <Head title={title} />
      <article
        aria-labelledby="legal-title"
        data-testid="legal-text"
        style={{ maxWidth: 800, margin: '0 auto', overflowWrap: 'anywhere' }}
      >
        <h1
          id="legal-title"
          style={{
            marginTop: 0,
            fontSize: 30,
            fontWeight: token.fontWeightStrong,
            color: token.colorTextHeading,
          }}
        >
          {title}
        </h1>
        <MarkdownRenderer source={props.text} />
      </article>
    </>
  )
}
