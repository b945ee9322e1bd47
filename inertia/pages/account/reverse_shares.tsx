import { useCallback, useEffect, useState } from 'react'
import { App, Button, Flex, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { Head } from '@inertiajs/react'
import { EmptyList, ListSkeleton, LoadErrorAlert } from '~/components/account/list_states'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { api, isApiError } from '~/lib/api'
import { formatBytes, formatDate } from '~/lib/format'
import { useErrorText } from '~/lib/validation'
import { maximumExpiry } from '#api/expiration'
import ReverseSharesTable from '~/components/reverse_shares/reverse_shares_table'
import ReverseShareLinkModal from '~/components/reverse_shares/reverse_share_link_modal'
import CreateReverseShareModal, {
  ReverseShareFieldError,
} from '~/components/reverse_shares/create_reverse_share_modal'
import type { CreateReverseShareInput, CreatedReverseShare, ReverseShare } from '#api/reverse_share'
import {
  EXPIRATION_TOO_LONG_MESSAGE,
  MAX_SHARE_SIZE_MESSAGE,
  reverseSharePaths,
} from '~/components/reverse_shares/types'

/** The link modal's content: a reverse share's link and expiry. */
type LinkShown = { link: string; expiration?: string }

/**
 * Reverse shares (`/account/reverseShares`): the signed-in user's upload
 * links from `GET /api/reverseShares` in a table (shares made through each,
 * remaining uses, max share size, expiry) with link and delete actions, or
 * an empty state; the create modal, then the new link with its QR code.
 */
export default function ReverseShares() {
  const { t, locale } = useI18n()
  const config = useConfig()
  const errorText = useErrorText()
  const { modal, notification } = App.useApp()
  const [reverseShares, setReverseShares] = useState<ReverseShare[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [creating, setCreating] = useState(false)
  const [linkShown, setLinkShown] = useState<LinkShown | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const list = await api.get<ReverseShare[]>(reverseSharePaths.mine)
      setReverseShares(list)
      setLoadError(null)
      return list
    } catch (error) {
      setReverseShares((current) => current ?? [])
      setLoadError(errorText(error))
      return null
    }
  }, [errorText])

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    void load()
  }, [load])

  /** Creates the reverse share, then shows its link; the server's refusals go to their fields. */
  const create = async (input: CreateReverseShareInput) => {
    let created: CreatedReverseShare
    try {
      created = await api.post<CreatedReverseShare>(reverseSharePaths.create, input)
    } catch (error) {
      const message = isApiError(error) ? error.messages.join(' ') : ''
      if (message === EXPIRATION_TOO_LONG_MESSAGE) {
        const maximum = maximumExpiry(config.string('share.maxExpiration', '0 days'))
        throw new ReverseShareFieldError(
          'expirationValue',
          t('upload.modal.expirationTooLong', {
            max: maximum ? formatDate(maximum.toISOString(), locale) : '',
          })
        )
      }
      if (MAX_SHARE_SIZE_MESSAGE.test(message)) {
        const max = formatBytes(config.number('share.maxSize', 1_000_000_000), locale)
        throw new ReverseShareFieldError(
          'sizeValue',
          t('reverse_shares.createModal.maxShareSizeTooLarge', { max })
        )
      }
      throw new Error(errorText(error))
    }
    setCreating(false)
    notification.success({ message: t('reverse_shares.created') })
    const list = await load()
    const listed = list?.find((item) => item.token === created.token)
    setLinkShown({ link: created.link, expiration: listed?.shareExpiration })
  }

  const remove = async (reverseShare: ReverseShare) => {
    setDeleting(reverseShare.id)
    try {
      await api.delete(reverseSharePaths.reverseShare(reverseShare.id))
      setReverseShares((current) => (current ?? []).filter((item) => item.id !== reverseShare.id))
      notification.success({ message: t('reverse_shares.delete.done') })
    } catch (error) {
      notification.error({
        message: t('reverse_shares.delete.failed'),
        description: errorText(error),
      })
    } finally {
      setDeleting(null)
    }
  }

  const confirmDelete = (reverseShare: ReverseShare) =>
    modal.confirm({
      title: t('reverse_shares.delete.title'),
      content: t('reverse_shares.delete.text', { count: reverseShare.shares.length }),
      okText: t('reverse_shares.delete.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('reverse_shares.cancel'),
      autoFocusButton: 'cancel',
      onOk: () => remove(reverseShare),
    })

  const createButton = (primary: boolean) => (
    <Button
      type={primary ? 'primary' : 'default'}
      icon={<PlusOutlined />}
      onClick={() => setCreating(true)}
    >
      {t('reverse_shares.create')}
    </Button>
  )

  return (
    <>
      <Head title={t('reverse_shares.title')} />
      <Flex vertical gap={24} style={{ maxWidth: 1200, margin: '0 auto', width: '100%' }}>
        <Flex justify="space-between" align="center" wrap gap={12}>
          <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
            {t('reverse_shares.title')}
          </Typography.Title>
          {reverseShares !== null && reverseShares.length > 0 && createButton(false)}
        </Flex>
        <Typography.Text type="secondary">{t('reverse_shares.intro')}</Typography.Text>
        <LoadErrorAlert
          error={loadError}
          retryLabel={t('reverse_shares.retry')}
          onRetry={() => void load()}
        />
        {reverseShares === null ? (
          <ListSkeleton label={t('reverse_shares.loading')} />
        ) : reverseShares.length === 0 && !loadError ? (
          <EmptyList
            testId="reverse-shares-empty"
            title={t('reverse_shares.empty.title')}
            text={t('reverse_shares.empty.text')}
          >
            {createButton(true)}
          </EmptyList>
        ) : (
          reverseShares.length > 0 && (
            <ReverseSharesTable
              reverseShares={reverseShares}
              deleting={deleting}
              onLink={(reverseShare) =>
                setLinkShown({ link: reverseShare.link, expiration: reverseShare.shareExpiration })
              }
              onDelete={confirmDelete}
            />
          )
        )}
      </Flex>
      <CreateReverseShareModal
        open={creating}
        onCancel={() => setCreating(false)}
        onSubmit={create}
      />
      <ReverseShareLinkModal
        link={linkShown?.link ?? null}
        expiration={linkShown?.expiration}
        onClose={() => setLinkShown(null)}
      />
    </>
  )
}
