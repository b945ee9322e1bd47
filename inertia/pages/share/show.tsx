import { useState } from 'react'
import { Card, Flex, Spin, Typography } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import type { ShareFileInfo as ShareFile, ShareShowPageProps } from '#api/share'
import { useShareAccess, type ShareViewState } from '~/components/share_view/use_share_access'
import ShareHeader from '~/components/share_view/share_header'
import FileTable from '~/components/share_view/file_table'
import DownloadAllButton from '~/components/share_view/download_all_button'
import PasswordModal from '~/components/share_view/password_modal'
import PreviewModal from '~/components/share_view/preview_modal'
import ShareStateResult from '~/components/share_view/share_state_result'

/** Props of the share view (see SharePageController). */
export type ShareShowProps = ShareShowPageProps

/**
 * The share view (`/share/:id`): the token flow (see use_share_access),
 * the password modal, the share's name, description and files with
 * download, direct link and preview, "Download all", and every error state
 * of the spec with its message.
 */
export default function ShareShow(props: ShareShowProps) {
  // A visit to another share starts over (state, modals) instead of reusing this one's.
  return <ShareView key={props.shareId} {...props} />
}

function ShareView(props: ShareShowProps) {
  const t = useTranslate()
  const access = useShareAccess(props.shareId, props.initialState as ShareViewState | null)
  const [preview, setPreview] = useState<ShareFile | null>(null)
  const { state } = access

  let title = t('share.view.title')
  if (state.kind === 'available') title = state.share.name || state.share.id
  else if (state.kind === 'notFound') title = t('share.error.notFound.title')

  return (
    <>
      <Head title={title} />
      <div style={{ maxWidth: 1000, margin: '0 auto' }}>
        {state.kind === 'loading' && (
          <Flex vertical align="center" gap={12} style={{ padding: 64 }} role="status">
            <Spin size="large" />
            <Typography.Text type="secondary">{t('share.view.loading')}</Typography.Text>
          </Flex>
        )}
        {state.kind === 'available' && (
          <Flex vertical gap={24}>
            <ShareHeader
              share={state.share}
              actions={state.share.files.length > 1 ? <DownloadAllButton shareId={state.share.id} /> : undefined}
            />
            <Card
              role="region"
              aria-labelledby="share-files-title"
              title={
                <Typography.Title id="share-files-title" level={2} style={{ fontSize: 18, margin: 0 }}>
                  {t('share.files.title')}
                </Typography.Title>
              }
              styles={{ body: { padding: 0 } }}
            >
              <FileTable share={state.share} onPreview={setPreview} />
            </Card>
          </Flex>
        )}
        {state.kind !== 'loading' && state.kind !== 'available' && (
          <ShareStateResult state={state} onEnterPassword={() => access.setPasswordOpen(true)} />
        )}
      </div>
      <PasswordModal
        open={access.passwordOpen}
        onSubmit={access.submitPassword}
        onClose={() => access.setPasswordOpen(false)}
      />
      <PreviewModal shareId={props.shareId} file={preview} onClose={() => setPreview(null)} />
    </>
  )
}
