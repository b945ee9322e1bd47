import { useEffect, useRef, useState } from 'react'
import { Alert, App, Button, Flex, List, Progress, Tooltip, Typography, Upload } from 'antd'
import { CloudUploadOutlined, DeleteOutlined, InboxOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import { api } from '~/lib/api'
import { formatBytes } from '~/lib/format'
import { useErrorText } from '~/lib/validation'
import { ChunkUploader, UploadError, newUploadState, type UploadState } from '~/lib/upload'
import type { Share as OwnedShare, ShareFileInfo } from '#api/share'
import { sharePaths } from '~/components/my_shares/types'
import { shareEditErrorText } from '~/components/share_edit/errors'

/** A file chosen to be appended, with its upload progress. */
interface PendingFile {
  key: string
  file: File
  /** Bytes uploaded. */
  uploaded: number
  status: 'waiting' | 'uploading' | 'done' | 'failed'
  state: UploadState
}

/** Props of {@link FilesCard}. */
export interface FilesCardProps {
  share: OwnedShare
  /** Called with the share as the server has it after a change of its files. */
  onChange: (share: OwnedShare) => void
}

let keys = 0

/** The API's message for a file named like one the share holds (400 `file_name_taken`). */
const FILE_NAME_TAKEN = 'A file with this name is already in the share'

/**
 * Keys of the files waiting to be appended whose name the share already
 * holds, or that an earlier file of the list has: the API refuses a second
 * file with the same name, so the page says so before uploading anything.
 */
function clashingNames(files: ShareFileInfo[], pending: PendingFile[]): Set<string> {
  const taken = new Set(files.map((file) => file.name))
  const clashing = new Set<string>()
  for (const item of pending) {
    if (item.status === 'done') continue
    if (taken.has(item.file.name)) clashing.add(item.key)
    taken.add(item.file.name)
  }
  return clashing
}

/**
 * The files of a share: the list with a remove action (after a
 * confirmation; the last file cannot be removed), and appending files: the
 * share is reopened (`DELETE /api/shares/:id/complete`), the new files are
 * uploaded in chunks with progress bars, then the share is completed again
 * (`POST /api/shares/:id/complete`). When files fail, their partial uploads
 * are removed and the share is completed with what it holds, so it never
 * stays hidden from its visitors; the failed files can be sent again.
 */
export default function FilesCard({ share, onChange }: FilesCardProps) {
  const { t, locale } = useI18n()
  const errorText = useErrorText()
  const { modal, notification } = App.useApp()
  const config = useConfig()
  const [pending, setPending] = useState<PendingFile[]>([])
  const [busy, setBusy] = useState(false)
  const [removing, setRemoving] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const pendingRef = useRef(pending)
  // eslint-disable-next-line react-hooks/refs -- the upload loop reads the latest list between renders
  pendingRef.current = pending

  const maxSize = config.number('share.maxSize', 0)
  const chunkSize = config.number('share.chunkSize', 10_000_000) || 10_000_000
  const pendingSize = pending.reduce((sum, item) => sum + item.file.size, 0)
  const tooLarge = maxSize > 0 && share.size + pendingSize > maxSize
  const clashing = clashingNames(share.files, pending)
  const clashingList = [
    ...new Set(pending.filter((item) => clashing.has(item.key)).map((item) => item.file.name)),
  ]

  // Leaving the page while files are uploading asks first.
  useEffect(() => {
    if (!busy) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [busy])

  const reload = async () => onChange(await api.get<OwnedShare>(sharePaths.fromOwner(share.id)))

  const update = (key: string, change: Partial<PendingFile>) =>
    setPending((items) => items.map((item) => (item.key === key ? { ...item, ...change } : item)))

  const append = async () => {
    if (tooLarge || busy || clashing.size > 0) return
    setBusy(true)
    setError(null)
    const items = pendingRef.current.filter((item) => item.status !== 'done')
    const failed: PendingFile[] = []
    let firstError: unknown = null
    try {
      await api.delete(sharePaths.complete(share.id))
      const uploader = new ChunkUploader({ fetch: (input, init) => fetch(input, init), chunkSize })
      await Promise.all(
        items.map(async (item) => {
          update(item.key, { status: 'uploading' })
          try {
            await uploader.upload(share.id, item.file, {
              state: item.state,
              onProgress: (uploaded) => update(item.key, { uploaded }),
            })
            update(item.key, { status: 'done', uploaded: item.file.size })
          } catch (cause) {
            failed.push(item)
            firstError ??= cause
            update(item.key, { status: 'failed' })
          }
        })
      )
      // Partial uploads of failed files would keep the share from completing.
      for (const item of failed) {
        if (item.state.fileId)
          await api.delete(sharePaths.file(share.id, item.state.fileId)).catch(() => undefined)
        update(item.key, { state: newUploadState(), uploaded: 0 })
      }
      await api.post(sharePaths.complete(share.id))
      setPending((current) => current.filter((item) => item.status !== 'done'))
      await reload()
      if (failed.length) {
        setError(
          `${t('share_edit.files.failed', { count: failed.length })} ${uploadErrorText(firstError)}`.trim()
        )
      } else {
        notification.success({ message: t('share_edit.files.appended', { count: items.length }) })
      }
    } catch (cause) {
      setError(`${t('share_edit.errors.appendFailed')} ${shareEditErrorText(t, errorText, cause)}`)
      await reload().catch(() => undefined)
    } finally {
      setBusy(false)
    }
  }

  const uploadErrorText = (cause: unknown) => {
    if (cause instanceof UploadError) {
      if (cause.status === 413) return t('share_edit.errors.maxSizeExceeded')
      if (cause.status === 507) return t('share_edit.errors.insufficientStorage')
      if (cause.status === 0) return t('validation.server.network')
      if (cause.message === FILE_NAME_TAKEN) return t('share_edit.errors.duplicateName')
      return cause.message
    }
    return ''
  }

  const remove = async (file: ShareFileInfo) => {
    setRemoving(file.id)
    setError(null)
    try {
      await api.delete(sharePaths.file(share.id, file.id))
      notification.success({ message: t('share_edit.files.removed', { name: file.name }) })
      await reload()
    } catch (cause) {
      setError(`${t('share_edit.errors.removeFailed')} ${shareEditErrorText(t, errorText, cause)}`)
    } finally {
      setRemoving(null)
    }
  }

  const confirmRemove = (file: ShareFileInfo) =>
    modal.confirm({
      title: t('share_edit.files.removeTitle'),
      content: t('share_edit.files.removeText', { name: file.name }),
      okText: t('share_edit.files.removeConfirm'),
      okButtonProps: { danger: true },
      cancelText: t('share_edit.cancel'),
      autoFocusButton: 'cancel',
      onOk: () => remove(file),
    })

  const lastFile = share.files.length <= 1

  return (
    <Flex vertical gap={16}>
      <List<ShareFileInfo>
        bordered
        dataSource={share.files}
        data-testid="share-files"
        locale={{ emptyText: t('share_edit.files.empty') }}
        header={
          <Typography.Text strong>
            {t('share_edit.files.summary', {
              count: share.files.length,
              size: formatBytes(share.size, locale),
            })}
          </Typography.Text>
        }
        renderItem={(file) => (
          <List.Item
            actions={[
              <Tooltip
                key="remove"
                title={lastFile ? t('share_edit.files.lastFile') : t('share_edit.files.remove')}
              >
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={lastFile || busy}
                  loading={removing === file.id}
                  aria-label={t('share_edit.files.removeNamed', { name: file.name })}
                  onClick={() => confirmRemove(file)}
                />
              </Tooltip>,
            ]}
          >
            <Flex gap={8} wrap style={{ minWidth: 0 }}>
              <span style={{ wordBreak: 'break-all' }}>{file.name}</span>
              <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                {formatBytes(Number(file.size), locale)}
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />

      <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
        {t('share_edit.files.appendTitle')}
      </Typography.Title>
      <Upload.Dragger
        multiple
        disabled={busy}
        showUploadList={false}
        beforeUpload={(file) => {
          setPending((items) => [
            ...items,
            {
              key: `pending-${++keys}`,
              file,
              uploaded: 0,
              status: 'waiting',
              state: newUploadState(),
            },
          ])
          return Upload.LIST_IGNORE
        }}
        aria-label={t('share_edit.files.dropLabel')}
        data-testid="append-dropzone"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('share_edit.files.dropTitle')}</p>
        <p className="ant-upload-hint">
          {maxSize > 0
            ? t('share_edit.files.dropHint', { maxSize: formatBytes(maxSize, locale) })
            : t('share_edit.files.dropHintUnlimited')}
        </p>
      </Upload.Dragger>

      {pending.length > 0 && (
        <List<PendingFile>
          bordered
          dataSource={pending}
          data-testid="pending-files"
          renderItem={(item) => {
            const percent = item.file.size
              ? Math.floor((item.uploaded / item.file.size) * 100)
              : item.status === 'done'
                ? 100
                : 0
            return (
              <List.Item
                actions={[
                  <Button
                    key="drop"
                    type="text"
                    icon={<DeleteOutlined />}
                    disabled={busy}
                    aria-label={t('share_edit.files.dropPending', { name: item.file.name })}
                    onClick={() =>
                      setPending((items) => items.filter((other) => other.key !== item.key))
                    }
                  />,
                ]}
              >
                <Flex vertical style={{ width: '100%', minWidth: 0 }}>
                  <Flex gap={8} wrap>
                    <span style={{ wordBreak: 'break-all' }}>{item.file.name}</span>
                    <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                      {formatBytes(item.file.size, locale)}
                    </Typography.Text>
                    {clashing.has(item.key) ? (
                      <Typography.Text type="danger">
                        {t('share_edit.files.status.duplicate')}
                      </Typography.Text>
                    ) : (
                      <Typography.Text type={item.status === 'failed' ? 'danger' : 'secondary'}>
                        {t(`share_edit.files.status.${item.status}`)}
                      </Typography.Text>
                    )}
                  </Flex>
                  <Progress
                    percent={item.status === 'done' ? 100 : percent}
                    status={
                      item.status === 'failed'
                        ? 'exception'
                        : item.status === 'done'
                          ? 'success'
                          : 'active'
                    }
                    size="small"
                    aria-label={t('share_edit.files.progressOf', { name: item.file.name })}
                  />
                </Flex>
              </List.Item>
            )
          }}
        />
      )}

      <div aria-live="polite">
        {tooLarge && (
          <Alert
            type="error"
            showIcon
            message={t('share_edit.errors.maxSize', { maxSize: formatBytes(maxSize, locale) })}
          />
        )}
        {clashing.size > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="duplicate-names"
            message={t('share_edit.errors.duplicateNames', {
              count: clashingList.length,
              names: clashingList.join(', '),
            })}
          />
        )}
        {error && (
          <Alert
            type="error"
            showIcon
            message={t('share_edit.errors.generic')}
            description={error}
            data-testid="files-error"
            closable
            onClose={() => setError(null)}
          />
        )}
      </div>

      {pending.length > 0 && (
        <Flex gap={8}>
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            loading={busy}
            disabled={tooLarge || clashing.size > 0}
            onClick={() => void append()}
          >
            {t('share_edit.files.upload', {
              count: pending.filter((item) => item.status !== 'done').length,
            })}
          </Button>
          <Button disabled={busy} onClick={() => setPending([])}>
            {t('share_edit.files.clear')}
          </Button>
        </Flex>
      )}
    </Flex>
  )
}
