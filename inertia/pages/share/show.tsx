import { lazy, Suspense, useState } from 'react'
import { Flex, Spin, theme } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import type { ShareFileInfo as ShareFile, ShareShowPageProps } from '#api/share'
import { useShareAccess } from '~/components/share_view/use_share_access'
import ShareHeader from '~/components/share_view/share_header'
import FileTable from '~/components/share_view/file_table'
import DownloadAllButton from '~/components/share_view/download_all_button'

// Loaded when first needed (a password asked, a preview clicked): Modal, Form
// and the previews stay out of the JavaScript a visitor's page loads.
const PasswordModal = lazy(() => import('~/components/share_view/password_modal'))
const PreviewModal = lazy(() => import('~/components/share_view/preview_modal'))
import ShareStateResult from '~/components/share_view/share_state_result'

/** Props of the share view (see SharePageController). */
export type ShareShowProps = ShareShowPageProps

/**
 * The share view (`/share/:id`): the token flow (see use_share_access),
 * the password modal, the share's name, description and files with
 * download, direct link and preview, "Download all", and every error state
 * with its message.
 */
export default function ShareShow(props: ShareShowProps) {
  // A visit to another share starts over (state, modals) instead of reusing this one's.
  return <ShareView key={props.shareId} {...props} />
}

function ShareView(props: ShareShowProps) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const access = useShareAccess(props.shareId, props.initialState)
  const [preview, setPreview] = useState<ShareFile | null>(null)
  // Each modal is mounted from its first opening on (they animate their own closing).
  const [passwordWanted, setPasswordWanted] = useState(false)
  const [previewWanted, setPreviewWanted] = useState(false)
  if (access.passwordOpen && !passwordWanted) setPasswordWanted(true)
  if (preview && !previewWanted) setPreviewWanted(true)
  const { state } = access

  let title = t('share.view.title')
  if (state.kind === 'available') title = state.share.name || state.share.id
  else if (state.kind === 'notFound') title = t('share.error.notFound.title')
  else if (state.kind === 'expired') title = t('share.error.expired.title')

  return (
    <>
      <Head title={title} />
      <div style={{ maxWidth: 1000, margin: '0 auto' }}>
        {state.kind === 'loading' && (
          <Flex vertical align="center" gap={12} style={{ padding: 64 }} role="status">
            <Spin size="large" />
            <span style={{ color: token.colorTextDescription }}>{t('share.view.loading')}</span>
          </Flex>
        )}
        {state.kind === 'available' && (
          <Flex vertical gap={24}>
            <ShareHeader
              share={state.share}
              actions={
                state.share.files.length > 1 ? (
                  <DownloadAllButton shareId={state.share.id} />
                ) : undefined
              }
            />
            {/* The look of an antd Card with a title, without Card (which brings rc-tabs along). */}
            <section
              aria-labelledby="share-files-title"
              style={{
                background: token.colorBgContainer,
                border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
                borderRadius: token.borderRadiusLG,
                overflow: 'hidden',
              }}
            >
              <div
                style={{
                  minHeight: 56,
                  padding: `0 ${token.paddingLG}px`,
                  display: 'flex',
                  alignItems: 'center',
                  borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
                }}
              >
                <h2
                  id="share-files-title"
                  style={{
                    fontSize: 18,
                    margin: 0,
                    fontWeight: token.fontWeightStrong,
                    color: token.colorTextHeading,
                  }}
                >
                  {t('share.files.title')}
                </h2>
              </div>
              <FileTable share={state.share} onPreview={setPreview} />
            </section>
          </Flex>
        )}
        {state.kind !== 'loading' && state.kind !== 'available' && (
          <ShareStateResult state={state} onEnterPassword={() => access.setPasswordOpen(true)} />
        )}
      </div>
      {passwordWanted && (
        <Suspense fallback={null}>
          <PasswordModal
            open={access.passwordOpen}
            onSubmit={access.submitPassword}
            onClose={() => access.setPasswordOpen(false)}
          />
        </Suspense>
      )}
      {previewWanted && (
        <Suspense fallback={null}>
          <PreviewModal shareId={props.shareId} file={preview} onClose={() => setPreview(null)} />
        </Suspense>
      )}
    </>
  )
}
