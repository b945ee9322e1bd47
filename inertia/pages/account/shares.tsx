import { useCallback, useEffect, useState } from 'react'
import { App, Flex, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { Head } from '@inertiajs/react'
import { EmptyList, ListSkeleton, LoadErrorAlert } from '~/components/account/list_states'
import { useTranslate } from '~/lib/i18n'
import { api } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import LinkButton from '~/components/link_button'
import ShareLinkModal from '~/components/share/share_link_modal'
import SharesTable, { type MyShareRow } from '~/components/my_shares/shares_table'
import ShareInfoModal from '~/components/my_shares/share_info_modal'
import type { MyShare } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'
import type { ReverseShare } from '#api/reverse_share'
import { reverseSharePaths } from '~/components/reverse_shares/types'

/**
 * My shares (`/account/shares`): the signed-in user's shares from
 * `GET /api/shares` in a table with info, link, edit and delete actions, or
 * an empty state with a button to create one. The shares others made through
 * the user's reverse shares (`GET /api/reverseShares`, Pingvin's list of
 * shares stays the user's own) are listed too, marked with the reverse
 * share's token, with info, link and open actions.
 */
export default function MyShares() {
  const t = useTranslate()
  const errorText = useErrorText()
  const { modal, notification } = App.useApp()
  const [shares, setShares] = useState<MyShareRow[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [info, setInfo] = useState<MyShareRow | null>(null)
  const [linkOf, setLinkOf] = useState<MyShareRow | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const [own, reverseShares] = await Promise.all([
        api.get<MyShare[]>(sharePaths.mine),
        api.get<ReverseShare[]>(reverseSharePaths.mine),
      ])
      const ownIds = new Set(own.map((share) => share.id))
      const received = reverseShares.flatMap((reverseShare) =>
        reverseShare.shares
          .filter((share) => !ownIds.has(share.id))
          .map((share): MyShareRow => ({ ...share, receivedThrough: reverseShare.token }))
      )
      setShares([...own, ...received])
      setLoadError(null)
    } catch (error) {
      setShares((current) => current ?? [])
      setLoadError(errorText(error))
    }
  }, [errorText])

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    void load()
  }, [load])

  const remove = async (share: MyShareRow) => {
    setDeleting(share.id)
    try {
      await api.delete(sharePaths.share(share.id))
      setShares((current) => (current ?? []).filter((item) => item.id !== share.id))
      notification.success({ message: t('my_shares.delete.done', { id: share.id }) })
    } catch (error) {
      notification.error({ message: t('my_shares.delete.failed'), description: errorText(error) })
    } finally {
      setDeleting(null)
    }
  }

  const confirmDelete = (share: MyShareRow) =>
    modal.confirm({
      title: t('my_shares.delete.title'),
      content: t('my_shares.delete.text', { id: share.id }),
      okText: t('my_shares.delete.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('my_shares.cancel'),
      autoFocusButton: 'cancel',
      onOk: () => remove(share),
    })

  return (
    <>
      <Head title={t('my_shares.title')} />
      <Flex vertical gap={24} style={{ maxWidth: 1200, margin: '0 auto', width: '100%' }}>
        <Flex justify="space-between" align="center" wrap gap={12}>
          <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
            {t('my_shares.title')}
          </Typography.Title>
          {shares !== null && shares.length > 0 && (
            <LinkButton href="/upload" icon={<PlusOutlined />}>
              {t('my_shares.create')}
            </LinkButton>
          )}
        </Flex>
        <LoadErrorAlert
          error={loadError}
          retryLabel={t('my_shares.retry')}
          onRetry={() => void load()}
        />
        {shares === null ? (
          <ListSkeleton label={t('my_shares.loading')} />
        ) : shares.length === 0 && !loadError ? (
          <EmptyList
            testId="my-shares-empty"
            title={t('my_shares.empty.title')}
            text={t('my_shares.empty.text')}
          >
            <LinkButton type="primary" href="/upload" icon={<PlusOutlined />}>
              {t('my_shares.create')}
            </LinkButton>
          </EmptyList>
        ) : (
          shares.length > 0 && (
            <SharesTable
              shares={shares}
              deleting={deleting}
              onInfo={setInfo}
              onLink={setLinkOf}
              onDelete={confirmDelete}
            />
          )
        )}
      </Flex>
      <ShareInfoModal share={info} onClose={() => setInfo(null)} />
      <ShareLinkModal
        open={linkOf !== null}
        onClose={() => setLinkOf(null)}
        shareId={linkOf?.id ?? ''}
        expiration={linkOf?.expiration}
        title={t('my_shares.linkTitle')}
      />
    </>
  )
}
