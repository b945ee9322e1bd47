import { useCallback, useEffect, useState } from 'react'
import { Alert, Button, Card, Flex, Result, Skeleton, Typography } from 'antd'
import { ArrowLeftOutlined, LinkOutlined } from '@ant-design/icons'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { api, isApiError } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import LinkButton from '~/components/link_button'
import ShareLinkModal from '~/components/share/share_link_modal'
import SettingsForm from '~/components/share_edit/settings_form'
import FilesCard from '~/components/share_edit/files_card'
import type { Share as OwnedShare, ShareEditPageProps } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'

/** Props of the share edit page (see MySharesPageController.edit). */
type ShareEditProps = ShareEditPageProps

type LoadState =
  | { kind: 'loading' }
  | { kind: 'ready'; share: OwnedShare }
  | { kind: 'notFound' }
  | { kind: 'forbidden' }
  | { kind: 'error'; message: string }

/** A refusal: 404 or 403, with a way back to the user's shares. */
function Refusal(props: { kind: 'notFound' | 'forbidden' }) {
  const t = useTranslate()
  return (
    <Result
      status={props.kind === 'notFound' ? '404' : '403'}
      title={
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {t(`share_edit.${props.kind}.title`)}
        </Typography.Title>
      }
      subTitle={t(`share_edit.${props.kind}.text`)}
      extra={
        <LinkButton type="primary" href="/account/shares">
          {t('share_edit.backToShares')}
        </LinkButton>
      }
      data-testid={`share-edit-${props.kind}`}
    />
  )
}

/**
 * Share edit (`/share/:id/edit`, owners only): the share from
 * `GET /api/shares/:id/from-owner`, its settings (name, description,
 * expiration, password, view limit) and its files (remove, append).
 */
export default function ShareEdit({
  shareId,
  access,
  maxViews: initialMaxViews,
  expirationFixed = false,
}: ShareEditProps) {
  const t = useTranslate()
  const errorText = useErrorText()
  const [state, setState] = useState<LoadState>(
    access === 'owner' ? { kind: 'loading' } : { kind: access }
  )
  const [maxViews, setMaxViews] = useState(initialMaxViews)
  const [linkOpen, setLinkOpen] = useState(false)

  const load = useCallback(async () => {
    try {
      setState({ kind: 'ready', share: await api.get<OwnedShare>(sharePaths.fromOwner(shareId)) })
    } catch (error) {
      if (isApiError(error) && error.statusCode === 404) setState({ kind: 'notFound' })
      else if (isApiError(error) && (error.statusCode === 403 || error.statusCode === 401))
        setState({ kind: 'forbidden' })
      else setState({ kind: 'error', message: errorText(error) })
    }
  }, [shareId, errorText])

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    if (access === 'owner') void load()
  }, [access, load])

  const setShare = (share: OwnedShare) => setState({ kind: 'ready', share })

  return (
    <>
      <Head
        title={
          state.kind === 'notFound' || state.kind === 'forbidden'
            ? t(`share_edit.${state.kind}.title`)
            : t('share_edit.title', { id: shareId })
        }
      />
      <Flex vertical gap={24} style={{ maxWidth: 800, margin: '0 auto', width: '100%' }}>
        {state.kind === 'notFound' || state.kind === 'forbidden' ? (
          <Refusal kind={state.kind} />
        ) : (
          <>
            <div>
              <LinkButton
                type="link"
                href="/account/shares"
                icon={<ArrowLeftOutlined />}
                style={{ paddingInline: 0 }}
              >
                {t('share_edit.backToShares')}
              </LinkButton>
              <Flex justify="space-between" align="center" wrap gap={12}>
                <Typography.Title
                  level={1}
                  style={{ margin: 0, fontSize: 30, wordBreak: 'break-all' }}
                >
                  {t('share_edit.title', { id: shareId })}
                </Typography.Title>
                {state.kind === 'ready' && (
                  <Button icon={<LinkOutlined />} onClick={() => setLinkOpen(true)}>
                    {t('share_edit.showLink')}
                  </Button>
                )}
              </Flex>
            </div>
            {state.kind === 'loading' && (
              <div aria-busy="true" aria-label={t('share_edit.loading')}>
                <Skeleton active paragraph={{ rows: 6 }} />
              </div>
            )}
            {state.kind === 'error' && (
              <Alert
                type="error"
                showIcon
                message={t('share_edit.errors.generic')}
                description={state.message}
                action={
                  <Button size="small" onClick={() => void load()}>
                    {t('share_edit.retry')}
                  </Button>
                }
              />
            )}
            {state.kind === 'ready' && (
              <>
                <Card
                  role="region"
                  aria-labelledby="share-edit-settings"
                  title={
                    <Typography.Title
                      id="share-edit-settings"
                      level={2}
                      style={{ fontSize: 18, margin: 0 }}
                    >
                      {t('share_edit.settings.title')}
                    </Typography.Title>
                  }
                >
                  <SettingsForm
                    share={state.share}
                    maxViews={maxViews}
                    expirationFixed={expirationFixed}
                    onSaved={(share, views) => {
                      setShare(share)
                      setMaxViews(views)
                    }}
                  />
                </Card>
                <Card
                  role="region"
                  aria-labelledby="share-edit-files"
                  title={
                    <Typography.Title
                      id="share-edit-files"
                      level={2}
                      style={{ fontSize: 18, margin: 0 }}
                    >
                      {t('share_edit.files.title')}
                    </Typography.Title>
                  }
                >
                  <FilesCard share={state.share} onChange={setShare} />
                </Card>
                <ShareLinkModal
                  open={linkOpen}
                  onClose={() => setLinkOpen(false)}
                  shareId={state.share.id}
                  expiration={state.share.expiration}
                  title={t('share_edit.linkTitle')}
                />
              </>
            )}
          </>
        )}
      </Flex>
    </>
  )
}
