import { useState } from 'react'
import { Button, Modal } from 'antd'
import { DownloadOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import type { ShareFileInfo as ShareFile } from '#api/share'
import { shareApiPaths } from '~/components/share_view/share_api'
import { PDF_PREVIEW_LIMIT, previewKind } from '~/components/share_view/preview_kind'
import {
  MarkdownPreview,
  MediaPreview,
  PdfPreview,
  TextPreview,
  UnsupportedPreview,
  type PreviewSource,
} from '~/components/share_view/file_previews'

/** Props of {@link PreviewModal}. */
export interface PreviewModalProps {
  shareId: string
  /** The file shown; null closes the modal. */
  file: ShareFile | null
  onClose(): void
}

function PreviewBody({ source }: { source: PreviewSource }) {
  const kind = previewKind(source.name)
  switch (kind) {
    case 'image':
    case 'video':
    case 'audio':
      return <MediaPreview source={source} kind={kind} />
    case 'pdf':
      return source.size > PDF_PREVIEW_LIMIT ? (
        <UnsupportedPreview source={source} />
      ) : (
        <PdfPreview source={source} />
      )
    case 'text':
      return <TextPreview source={source} />
    case 'markdown':
      return <MarkdownPreview source={source} />
    default:
      return <UnsupportedPreview source={source} />
  }
}

/**
 * The preview of one file of a share, chosen by its name (see
 * `preview_kind`), with a download button. The modal keeps the focus inside
 * while open and gives it back to the preview button when closed; its
 * content is destroyed on close so media stop playing.
 */
export default function PreviewModal({ shareId, file: current, onClose }: PreviewModalProps) {
  const t = useTranslate()
  // The last file stays shown while the modal closes (its title must not vanish mid-animation).
  const [last, setLast] = useState(current)
  if (current && current !== last) setLast(current)
  const file = current ?? last
  const source: PreviewSource | null = file && {
    name: file.name,
    size: Number(file.size),
    inlineUrl: shareApiPaths.file(shareId, file.id, false),
    downloadUrl: shareApiPaths.file(shareId, file.id, true),
  }
  return (
    <Modal
      open={current !== null}
      title={file?.name}
      onCancel={onClose}
      width={900}
      destroyOnHidden
      footer={
        source && [
          <Button key="download" icon={<DownloadOutlined />} href={source.downloadUrl}>
            {t('share.files.download')}
          </Button>,
          <Button key="close" type="primary" onClick={onClose}>
            {t('share.preview.close')}
          </Button>,
        ]
      }
    >
      {source && <PreviewBody key={`${shareId}/${file!.id}`} source={source} />}
    </Modal>
  )
}
