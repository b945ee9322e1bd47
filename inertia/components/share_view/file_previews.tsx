/**
 * The previews of the preview modal, one per kind: images, video and audio
 * (the browser's own elements on the inline URL), PDF, text (a `<pre>`) and
 * Markdown (rendered without raw HTML), and "Preview not supported".
 */
import { useCallback, useState, type ReactNode } from 'react'
import { Alert, Result, Spin, Typography, theme } from 'antd'
import { useI18n, useTranslate } from '~/lib/i18n'
import { formatBytes } from '~/lib/format'
import Markdown from '~/components/share_view/markdown'
import { useBlobUrl, useFileText, type Loaded } from '~/components/share_view/use_file_preview'
import { TEXT_PREVIEW_LIMIT } from '~/components/share_view/preview_kind'
import { pdfWithTitle } from '~/components/share_view/pdf_title'

/** What every preview gets: the file's name and size, its inline and download URLs. */
export interface PreviewSource {
  name: string
  size: number
  inlineUrl: string
  downloadUrl: string
}

/**
 * "Preview not supported" (a file that turned out not to play, a PDF the
 * browser cannot show): the modal's footer has the one Download button.
 */
export function UnsupportedPreview(_props: { source: PreviewSource }) {
  const t = useTranslate()
  return (
    <Result
      status="info"
      title={t('share.preview.unsupported')}
      subTitle={t('share.preview.unsupportedHint')}
    />
  )
}

function Loading<T>(props: { state: Loaded<T>; children: (value: T) => ReactNode }) {
  const t = useTranslate()
  if (props.state.status === 'loading') {
    return (
      <div role="status" style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('share.preview.loading')}
        </Typography.Paragraph>
      </div>
    )
  }
  if (props.state.status === 'error') {
    return <Alert type="error" showIcon message={t('share.preview.failed')} />
  }
  return <>{props.children(props.state.value)}</>
}

/** A tall, scrollable, keyboard-focusable box themed for light and dark mode. */
function useBoxStyle() {
  const { token } = theme.useToken()
  return {
    maxHeight: '65vh',
    overflow: 'auto',
    margin: 0,
    padding: 16,
    borderRadius: token.borderRadius,
    background: token.colorFillQuaternary,
    border: `1px solid ${token.colorBorderSecondary}`,
    color: token.colorText,
    fontFamily: token.fontFamilyCode,
  } as const
}

function TruncatedNote({ truncated }: { truncated: boolean }) {
  const { t, locale } = useI18n()
  if (!truncated) return null
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
      {t('share.preview.truncated', { size: formatBytes(TEXT_PREVIEW_LIMIT, locale) })}
    </Typography.Paragraph>
  )
}

/** A text file: its first megabyte in a `<pre>`. */
export function TextPreview({ source }: { source: PreviewSource }) {
  const t = useTranslate()
  const state = useFileText(source.inlineUrl, source.size, TEXT_PREVIEW_LIMIT)
  const style = useBoxStyle()
  return (
    <Loading state={state}>
      {({ text, truncated }) => (
        <>
          <pre
            data-testid="text-preview"
            tabIndex={0}
            aria-label={t('share.preview.contentOf', { name: source.name })}
            style={{ ...style, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {text}
          </pre>
          <TruncatedNote truncated={truncated} />
        </>
      )}
    </Loading>
  )
}

/** A Markdown file rendered with the safe renderer (raw HTML shows as text). */
export function MarkdownPreview({ source }: { source: PreviewSource }) {
  const t = useTranslate()
  const state = useFileText(source.inlineUrl, source.size, TEXT_PREVIEW_LIMIT)
  const style = useBoxStyle()
  return (
    <Loading state={state}>
      {({ text, truncated }) => (
        <>
          <Typography>
            <div
              data-testid="markdown-preview"
              tabIndex={0}
              role="document"
              aria-label={t('share.preview.contentOf', { name: source.name })}
              style={{ ...style, background: 'transparent', fontFamily: undefined }}
            >
              <Markdown source={text} />
            </div>
          </Typography>
          <TruncatedNote truncated={truncated} />
        </>
      )}
    </Loading>
  )
}

/** A PDF in the browser's viewer (from a blob, see use_file_preview), or the download button. */
export function PdfPreview({ source }: { source: PreviewSource }) {
  const t = useTranslate()
  // Titled with the file name in the viewer's bar (see pdf_title) and as the element's name.
  const titled = useCallback(
    (bytes: Uint8Array<ArrayBuffer>) => pdfWithTitle(bytes, source.name),
    [source.name]
  )
  const state = useBlobUrl(source.inlineUrl, 'application/pdf', titled)
  return (
    <Loading state={state}>
      {(url) => (
        <object
          data={url}
          type="application/pdf"
          title={source.name}
          aria-label={source.name}
          data-testid="pdf-preview"
          style={{ width: '100%', height: '70vh', border: 0 }}
        >
          <Typography.Paragraph>{t('share.preview.pdfUnavailable')}</Typography.Paragraph>
          <UnsupportedPreview source={source} />
        </object>
      )}
    </Loading>
  )
}

/** An image, video or audio file in the browser's element; "Preview not supported" if it cannot play. */
export function MediaPreview({
  source,
  kind,
}: {
  source: PreviewSource
  kind: 'image' | 'video' | 'audio'
}) {
  const [failed, setFailed] = useState(false)
  if (failed) return <UnsupportedPreview source={source} />
  const common = { src: source.inlineUrl, onError: () => setFailed(true) }
  const box = { display: 'block', maxWidth: '100%', maxHeight: '70vh', margin: '0 auto' } as const
  if (kind === 'image')
    return <img {...common} alt={source.name} style={box} data-testid="image-preview" />
  if (kind === 'video')
    return <video {...common} controls preload="metadata" aria-label={source.name} style={box} />
  return (
    <audio
      {...common}
      controls
      preload="metadata"
      aria-label={source.name}
      style={{ width: '100%' }}
    />
  )
}
