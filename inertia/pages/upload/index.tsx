import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Alert, App, Button, Flex, Progress, Typography } from 'antd'
import { Head, usePage } from '@inertiajs/react'
import { useI18n, type TranslateFn } from '~/lib/i18n'
import { useConfig } from '~/lib/config'
import {
  formatBytes,
  formatDate,
  formatDuration,
  formatPercent,
  formatSpeed,
  isNeverExpiring,
} from '~/lib/format'
import { SpeedMeter, announcementDue } from '~/lib/upload_progress'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import { maximumExpiry } from '#api/expiration'
import { errorText, translateServerMessage } from '~/lib/validation'
import {
  ChunkUploader,
  UploadError,
  completeShare,
  createShare,
  newUploadState,
  randomShareId,
  type CreateShareInput,
  type UploadState,
} from '~/lib/upload'
import type { CreatedShare } from '#api/share'
import Dropzone from '~/components/upload/dropzone'
import UploadFileList, { type UploadItem } from '~/components/upload/file_list'
import CreateShareModal, { FieldError } from '~/components/upload/create_share_modal'
import ShareLinkModal from '~/components/share/share_link_modal'
import {
  ReverseShareUnavailableError,
  createReverseShareShare,
  isReverseShareUsedUp,
} from '~/components/upload/reverse_share_upload'
import type { PublicReverseShare } from '#api/reverse_share'

/**
 * Chunk requests in flight at once, all files together (files are
 * pipelined: the next file's chunks start while the last ones of the
 * previous are in flight). 4 is what bench/transfer sends and measures best
 * with the server's `share.chunkSize`; it leaves 2 of the browser's 6
 * connections per host free for the page.
 */
const CONCURRENCY = 4
/** How often the speed and time left are refreshed on screen (ms). */
const TICK = 1000
/** Rounds of automatic retries of failed files before giving up. */
const FILE_ROUNDS = 5
/** Back-off between rounds, doubled each time (ms). */
const ROUND_DELAY = 2000

/** Key of the "files failed to upload. Trying again." notification (updated in place). */
const RETRY_NOTICE = 'upload-retry'

type Phase = 'choosing' | 'uploading' | 'completing' | 'done'

let nextKey = 0

const browserFetch = (input: string, init?: RequestInit) => fetch(input, init)

/** The message of a refused call, translated where the catalogue knows it. */
function describe(t: TranslateFn, error: unknown): string {
  if (error instanceof UploadError) {
    if (error.kind === 'network') return t('validation.server.network')
    if (error.status >= 500 && error.status !== 507) return t('validation.server.unknown')
    return translateServerMessage(t, error.message) || t('validation.server.unknown')
  }
  return errorText(t, error)
}

/** Props of the upload page. */
export interface UploadPageProps {
  /**
   * Upload through this reverse share (`/upload/:token`, see
   * pages/upload/reverse_share.tsx): its size limit and expiry apply; in
   * simplified mode there is no create-share modal, only the files and the
   * share-ready result.
   */
  reverseShare?: PublicReverseShare
}

/**
 * The upload page: choose files (dropzone, file and folder pickers), check
 * the total against `share.maxSize` (or the reverse share's limit), create
 * the share in the modal, upload every file in chunks with progress and
 * automatic retries, complete the share and show its link.
 */
export default function UploadPage({ reverseShare }: UploadPageProps) {
  const { t, locale } = useI18n()
  const config = useConfig()
  const { notification } = App.useApp()
  const { user } = usePage().props
  const maxSize = reverseShare
    ? Number(reverseShare.maxShareSize)
    : config.number('share.maxSize', 1_000_000_000)
  const chunkSize = config.number('share.chunkSize', 10_000_000)
  const simplified = reverseShare?.simplified ?? false
  const autoOpen = config.boolean('share.autoOpenShareModal') && !simplified

  const [items, setItems] = useState<UploadItem[]>([])
  const [sizeError, setSizeError] = useState<string | null>(null)
  const [modalOpen, setModalOpen] = useState(false)
  const [phase, setPhase] = useState<Phase>('choosing')
  const [uploadError, setUploadError] = useState<string | null>(null)
  const [completed, setCompleted] = useState<CreatedShare | null>(null)
  /** Simplified mode: the share is being created (no modal shows the progress of that). */
  const [starting, setStarting] = useState(false)
  const states = useRef(new Map<string, UploadState>())
  /** Files with a chunk being sent again (for the "Trying again" notice). */
  const retrying = useRef(new Set<string>())
  /** Bytes stored per file key, read synchronously by the speed meter. */
  const uploadedByKey = useRef(new Map<string, number>())
  const meter = useRef(new SpeedMeter())
  /** Clock of the speed and time-left display, advanced every `TICK` while uploading. */
  const [now, setNow] = useState(0)
  /** What the polite live region says, and when and in which phase it last changed. */
  const [announcement, setAnnouncement] = useState('')
  const lastAnnouncement = useRef<{ time: number; phase: string } | null>(null)

  const totalSize = useMemo(() => items.reduce((sum, item) => sum + item.file.size, 0), [items])
  const maxSizeText = formatBytes(maxSize, locale)

  const addFiles = useCallback(
    // eslint-disable-next-line react-hooks/preserve-manual-memoization -- the app does not use the React Compiler; these are the deps
    (chosen: File[]) => {
      if (phase !== 'choosing') return
      // A name already in the list is not added twice (the API refuses a second
      // file with the same name in a share, and so does the share edit page).
      const names = new Set(items.map((item) => item.file.name))
      const files: File[] = []
      const repeated = new Set<string>()
      for (const file of chosen) {
        if (names.has(file.name)) repeated.add(file.name)
        else files.push(file)
        names.add(file.name)
      }
      const added = files.reduce((sum, file) => sum + file.size, 0)
      if (totalSize + added > maxSize) {
        setSizeError(t('upload.errors.maxSize', { maxSize: maxSizeText }))
        return
      }
      setSizeError(
        repeated.size > 0
          ? t('upload.errors.duplicateNames', {
              count: repeated.size,
              names: [...repeated].join(', '),
            })
          : null
      )
      if (files.length === 0) return
      setItems((current) => [
        ...current,
        ...files.map((file) => ({
          key: `f${nextKey++}`,
          file,
          uploaded: 0,
          status: 'waiting' as const,
        })),
      ])
      if (autoOpen) setModalOpen(true)
    },
    // eslint-disable-next-line react-hooks/preserve-manual-memoization -- the app does not use the React Compiler; these are the deps
    [phase, items, totalSize, maxSize, maxSizeText, t, autoOpen]
  )

  const removeFile = (key: string) => {
    setItems((current) => current.filter((item) => item.key !== key))
    setSizeError(null)
  }

  const update = (key: string, patch: Partial<UploadItem>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)))

  /** Records the bytes stored of one file for the speed meter. */
  const measure = (key: string, uploaded: number) => {
    uploadedByKey.current.set(key, uploaded)
    let sum = 0
    for (const value of uploadedByKey.current.values()) sum += value
    // eslint-disable-next-line react-hooks/purity -- runs in upload callbacks, never while rendering
    meter.current.record(performance.now(), sum)
  }

  /** Uploads every file not done yet; resolves to the keys of the files that failed (and the last error). */
  const uploadRound = async (shareId: string, uploader: ChunkUploader, round: UploadItem[]) => {
    const failures: { key: string; error: unknown }[] = []
    await Promise.all(
      round.map(async (item) => {
        let state = states.current.get(item.key)
        if (!state) states.current.set(item.key, (state = newUploadState()))
        update(item.key, { status: 'uploading' })
        try {
          await uploader.upload(shareId, item.file, {
            state,
            onProgress: (uploaded) => {
              measure(item.key, uploaded)
              update(item.key, { uploaded, status: 'uploading' })
            },
          })
          measure(item.key, item.file.size)
          update(item.key, { status: 'done', uploaded: item.file.size })
          retrying.current.delete(item.key)
        } catch (error) {
          failures.push({ key: item.key, error })
          update(item.key, { status: 'failed' })
        }
      })
    )
    return failures
  }

  const startShare = async (input: CreateShareInput) => {
    let share: CreatedShare
    try {
      share = reverseShare
        ? await createReverseShareShare(browserFetch, reverseShare.token, input)
        : await createShare({ fetch: browserFetch }, input)
    } catch (error) {
      if (error instanceof ReverseShareUnavailableError)
        throw new Error(t('reverse_shares.upload.unavailable'))
      if (error instanceof UploadError && error.message === 'Share id already in use') {
        throw new FieldError('id', t('upload.modal.linkInUse'))
      }
      if (
        error instanceof UploadError &&
        error.message === 'Expiration date exceeds maximum expiration date'
      ) {
        const maximum = maximumExpiry(config.string('share.maxExpiration', '0 days'))
        throw new Error(
          t('upload.errors.expiration', {
            max: maximum ? formatDate(maximum.toISOString(), locale) : '',
          })
        )
      }
      throw new Error(describe(t, error))
    }

    setModalOpen(false)
    setPhase('uploading')
    setUploadError(null)
    states.current.clear()
    retrying.current.clear()
    uploadedByKey.current.clear()
    // eslint-disable-next-line react-hooks/purity -- runs when the share is created, never while rendering
    meter.current.start(performance.now())
    // eslint-disable-next-line react-hooks/purity -- runs when the share is created, never while rendering
    setNow(performance.now())
    const uploader = new ChunkUploader({
      fetch: browserFetch,
      chunkSize,
      concurrency: CONCURRENCY,
      retries: 3,
      onRetry: (event) => {
        const item = items.find((candidate) => candidate.file === event.file)
        if (!item) return
        update(item.key, { status: 'retrying' })
        retrying.current.add(item.key)
        notification.warning({
          key: RETRY_NOTICE,
          message: t('upload.errors.retrying', { count: retrying.current.size }),
        })
      },
    })

    let pending = items
    for (let round = 0; ; round++) {
      const failures = await uploadRound(share.id, uploader, pending)
      if (failures.length === 0) break
      const fatal = failures.find(
        ({ error }) => !(error instanceof UploadError) || !error.retryable
      )
      if (fatal || round + 1 >= FILE_ROUNDS) {
        const error = fatal?.error ?? failures[0].error
        const message =
          error instanceof UploadError && error.status === 413
            ? t('upload.errors.serverMaxSize', { maxSize: maxSizeText })
            : `${t('upload.errors.gaveUp', { count: failures.length })} ${describe(t, error)}`
        setUploadError(message)
        notification.error({ message })
        setPhase('choosing')
        return
      }
      notification.warning({
        key: RETRY_NOTICE,
        message: t('upload.errors.retrying', { count: failures.length }),
      })
      const keys = new Set(failures.map((failure) => failure.key))
      pending = items.filter((item) => keys.has(item.key))
      pending.forEach((item) => update(item.key, { status: 'retrying' }))
      await new Promise((resolve) => setTimeout(resolve, ROUND_DELAY * 2 ** round))
    }

    setPhase('completing')
    try {
      setCompleted(await completeShare({ fetch: browserFetch }, share.id))
      setPhase('done')
    } catch (error) {
      const message = isReverseShareUsedUp(error)
        ? t('reverse_shares.upload.unavailable')
        : t('upload.errors.finish')
      setUploadError(message)
      notification.error({ message })
      setPhase('choosing')
    }
  }

  /**
   * Simplified reverse-share mode: "Share" uploads at once with a random
   * link and nothing else (a link already taken is drawn again).
   */
  const startSimplified = async () => {
    setStarting(true)
    setUploadError(null)
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await startShare({
            id: randomShareId(config.number('share.shareIdLength', 8)),
            expiration: 'never',
            recipients: [],
          })
          return
        } catch (error) {
          if (!(error instanceof FieldError) || attempt >= 2) throw error
        }
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      setUploadError(message)
      notification.error({ message })
    } finally {
      setStarting(false)
    }
  }

  const closeReady = () => {
    setCompleted(null)
    setItems([])
    states.current.clear()
    setPhase('choosing')
  }

  // Leaving the page during an upload asks for confirmation.
  useEffect(() => {
    if (phase !== 'uploading' && phase !== 'completing') return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [phase])

  // While uploading, the speed and time left are refreshed every second (they also decay when nothing arrives).
  useEffect(() => {
    if (phase !== 'uploading') return
    const timer = setInterval(() => setNow(performance.now()), TICK)
    return () => clearInterval(timer)
  }, [phase])

  const busy = phase === 'uploading' || phase === 'completing' || starting
  const doneCount = items.filter((item) => item.status === 'done').length
  const uploadedBytes = items.reduce((sum, item) => sum + item.uploaded, 0)
  const percent =
    totalSize === 0
      ? doneCount === items.length
        ? 100
        : 0
      : Math.floor((uploadedBytes / totalSize) * 100)
  // eslint-disable-next-line react-hooks/refs -- the meter is read at each tick of `now`
  const speed = phase === 'uploading' ? meter.current.speed(now) : null
  const secondsLeft =
    // eslint-disable-next-line react-hooks/refs -- the meter is read at each tick of `now`
    phase === 'uploading' ? meter.current.secondsLeft(now, totalSize - uploadedBytes) : null
  const duration = secondsLeft === null ? null : formatDuration(secondsLeft, locale)
  const timeLeftText =
    secondsLeft === null || speed === 0
      ? t('upload.progress.measuring')
      : duration
        ? t('upload.progress.timeLeft', { time: duration })
        : t('upload.progress.fewSeconds')
  const statusText =
    phase === 'uploading'
      ? t('upload.status.uploading', {
          done: doneCount,
          total: items.length,
          percent: formatPercent(percent, locale),
        })
      : phase === 'completing'
        ? t('upload.status.completing')
        : phase === 'done'
          ? t('upload.status.done')
          : ''

  // The polite live region speaks on each change of phase and every 15 s while uploading, not at every chunk.
  useEffect(() => {
    if (!statusText) return
    const time = performance.now()
    if (!announcementDue(lastAnnouncement.current, time, phase)) return
    lastAnnouncement.current = { time, phase }
    setAnnouncement(
      phase === 'uploading' && secondsLeft !== null ? `${statusText} ${timeLeftText}` : statusText
    )
  }, [statusText, timeLeftText, phase, secondsLeft])

  return (
    <>
      <Head title={t('upload.title')} />
      <Flex vertical gap={24} style={{ maxWidth: 900, margin: '0 auto' }}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
          {t('upload.title')}
        </Typography.Title>
        {reverseShare && (
          <Typography.Text type="secondary" data-testid="reverse-share-intro">
            {t('reverse_shares.upload.intro')}{' '}
            {isNeverExpiring(reverseShare.shareExpiration)
              ? t('reverse_shares.upload.neverExpires')
              : t('reverse_shares.upload.expiresOn', {
                  date: formatDate(reverseShare.shareExpiration, locale),
                })}
          </Typography.Text>
        )}
        <Dropzone onFiles={addFiles} maxSizeText={maxSizeText} disabled={busy} />
        {sizeError && <Alert type="error" showIcon role="alert" message={sizeError} />}
        {uploadError && <Alert type="error" showIcon role="alert" message={uploadError} />}
        <div
          aria-live="polite"
          role="status"
          style={VISUALLY_HIDDEN}
          data-testid="upload-announcement"
        >
          {announcement}
        </div>
        {/* Seen, not spoken (the live region above speaks); once done, the share-ready dialog shows it. */}
        {phase !== 'done' && <div data-testid="upload-status">{statusText}</div>}
        {phase === 'uploading' && (
          <div data-testid="upload-summary">
            <Progress
              percent={percent}
              status="active"
              aria-label={t('upload.progress.overall')}
              format={() => formatPercent(percent, locale)}
            />
            <Flex wrap gap="4px 16px">
              <Typography.Text data-testid="upload-bytes">
                {t('upload.progress.bytes', {
                  done: formatBytes(uploadedBytes, locale),
                  total: formatBytes(totalSize, locale),
                })}
              </Typography.Text>
              <Typography.Text type="secondary" data-testid="upload-speed">
                {speed === null ? t('upload.progress.measuring') : formatSpeed(speed, locale)}
              </Typography.Text>
              {!!speed && (
                <Typography.Text type="secondary" data-testid="upload-time-left">
                  {timeLeftText}
                </Typography.Text>
              )}
            </Flex>
          </div>
        )}
        {items.length > 0 && (
          <>
            <Flex justify="space-between" align="center" wrap gap={8}>
              <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
                {t('upload.files.title')}
              </Typography.Title>
              <Typography.Text type="secondary">
                {t('upload.files.total', {
                  count: items.length,
                  size: formatBytes(totalSize, locale),
                })}
              </Typography.Text>
            </Flex>
            <UploadFileList
              items={items}
              onRemove={busy ? undefined : removeFile}
              showProgress={phase !== 'choosing' || items.some((item) => item.status !== 'waiting')}
            />
            <Flex justify="end" gap={8}>
              <Button onClick={() => setItems([])} disabled={busy}>
                {t('upload.clear')}
              </Button>
              <Button
                type="primary"
                onClick={() => (simplified ? void startSimplified() : setModalOpen(true))}
                disabled={busy}
                loading={busy}
              >
                {t('upload.share')}
              </Button>
            </Flex>
          </>
        )}
      </Flex>
      {!simplified && (
        <CreateShareModal
          open={modalOpen}
          onCancel={() => setModalOpen(false)}
          onSubmit={startShare}
          isVisitor={!user}
          fixedExpiration={reverseShare?.shareExpiration}
        />
      )}
      {completed && (
        <ShareLinkModal
          open
          onClose={closeReady}
          shareId={completed.id}
          expiration={completed.expiration}
          title={t('upload.ready.title')}
        />
      )}
    </>
  )
}
