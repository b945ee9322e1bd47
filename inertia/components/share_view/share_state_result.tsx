import { Button, Result } from 'antd'
import { FieldTimeOutlined, LockOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { paths } from '~/lib/links'
import LinkButton from '~/components/link_button'
import type { ShareViewState } from '~/components/share_view/use_share_access'

/** The states shown as a result page (everything but loading and available). */
export type ShareErrorState = Exclude<ShareViewState, { kind: 'loading' } | { kind: 'available' }>

/** Heading and text of each state, as catalogue keys. */
const TEXTS = {
  notFound: ['share.error.notFound.title', 'share.error.notFound.description'],
  expired: ['share.error.expired.title', 'share.error.expired.description'],
  removed: ['share.error.removed.title', 'share.error.removed.description'],
  visitorLimit: ['share.error.visitorLimit.title', 'share.error.visitorLimit.description'],
  privateShare: ['share.error.private.title', 'share.error.private.description'],
  passwordRequired: ['share.password.title', 'share.password.description'],
  unknown: ['share.error.title', 'share.error.unknown'],
} as const

/**
 * A share state that is not the share itself: 'Share not found', 'Share
 * expired', 'Share removed' (with the admin's reason), 'Visitor limit exceeded', private
 * share, 'Password required' (with a button reopening the password modal)
 * or 'An unknown error occurred'. The heading is the page's h1.
 */
export default function ShareStateResult(props: {
  state: ShareErrorState
  onEnterPassword(): void
}) {
  const t = useTranslate()
  const { state } = props
  const [title, description] = TEXTS[state.kind]
  const status =
    state.kind === 'notFound' || state.kind === 'removed'
      ? '404'
      : state.kind === 'unknown'
        ? 'error'
        : '403'
  return (
    <Result
      status={status}
      icon={
        state.kind === 'passwordRequired' ? (
          <LockOutlined />
        ) : state.kind === 'expired' ? (
          <FieldTimeOutlined />
        ) : undefined
      }
      title={<h1 className="tern-result-title">{t(title)}</h1>}
      subTitle={
        <span
          role={state.kind === 'passwordRequired' ? undefined : 'alert'}
          data-testid="share-state-message"
        >
          {state.kind === 'removed' && state.reason ? state.reason : t(description)}
        </span>
      }
      extra={
        state.kind === 'passwordRequired' ? (
          <Button type="primary" onClick={props.onEnterPassword}>
            {t('share.password.open')}
          </Button>
        ) : (
          <LinkButton href={paths.home}>{t('share.error.home')}</LinkButton>
        )
      }
    />
  )
}
