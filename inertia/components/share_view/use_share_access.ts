/**
 * The token flow of the share view (spec/api.md §4), as a state machine:
 *
 * 1. `GET /api/shares/:id`: with a valid `share_<id>_token` cookie (an earlier
 *    visit in this browser session) the share shows without counting a view.
 * 2. `share_token_required`: `POST /api/shares/:id/token` without a password
 *    (counts one view), then GET again.
 * 3. `share_password_required`: the password modal; its submit posts the
 *    password, then GETs the share.
 *
 * Every other answer becomes one of the spec's states: not found (missing,
 * expired), removed (with the admin's reason), visitor limit exceeded,
 * private share, or unknown.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, isApiError } from '~/lib/api'
import type { Share } from '#api/share'
import { shareApiPaths } from '~/components/share_view/share_api'

/** What the share view shows. */
export type ShareViewState =
  | { kind: 'loading' }
  | { kind: 'available'; share: Share }
  | { kind: 'passwordRequired' }
  | { kind: 'notFound' }
  | { kind: 'removed'; reason: string }
  | { kind: 'visitorLimit' }
  | { kind: 'privateShare' }
  | { kind: 'unknown' }

/** Why a password was refused (the modal shows it under the field). */
export type PasswordError = { kind: 'wrong' } | { kind: 'tooMany'; retryAfter: number | null } | { kind: 'unknown' }

/** The state an API error of the share routes leads to. */
export function stateOfError(error: unknown): ShareViewState {
  if (!isApiError(error)) return { kind: 'unknown' }
  if (error.statusCode === 404) {
    return error.error === 'share_removed' ? { kind: 'removed', reason: error.messages.join(' ') } : { kind: 'notFound' }
  }
  switch (error.error) {
    case 'share_password_required':
      return { kind: 'passwordRequired' }
    case 'share_max_views_exceeded':
      return { kind: 'visitorLimit' }
    case 'private_share':
      return { kind: 'privateShare' }
    default:
      return { kind: 'unknown' }
  }
}

/** Result of {@link useShareAccess}. */
export interface ShareAccess {
  state: ShareViewState
  /** Whether the password modal is open. */
  passwordOpen: boolean
  setPasswordOpen(open: boolean): void
  /** Posts the password; resolves to the error to show, or null once the share is shown. */
  submitPassword(password: string): Promise<PasswordError | null>
}

/**
 * Runs the token flow for `shareId`; `initial` is the state the server
 * already rendered (not found, removed), which skips the API calls.
 */
export function useShareAccess(shareId: string, initial: ShareViewState | null): ShareAccess {
  const [state, setState] = useState<ShareViewState>(initial ?? { kind: 'loading' })
  const [passwordOpen, setPasswordOpen] = useState(false)
  const mounted = useRef(true)

  const show = useCallback((next: ShareViewState) => {
    if (!mounted.current) return
    setState(next)
    setPasswordOpen(next.kind === 'passwordRequired')
  }, [])

  /** GETs the share; on `share_token_required` gets a token once (no password) and retries. */
  const load = useCallback(
    async (mayRequestToken: boolean): Promise<void> => {
      try {
        show({ kind: 'available', share: await api.get<Share>(shareApiPaths.share(shareId)) })
      } catch (error) {
        if (mayRequestToken && isApiError(error) && error.error === 'share_token_required') {
          try {
            await api.post(shareApiPaths.token(shareId), {})
          } catch (tokenError) {
            return show(stateOfError(tokenError))
          }
          return load(false)
        }
        show(stateOfError(error))
      }
    },
    [shareId, show]
  )

  // The flow runs once per share page (the page is keyed by the share id).
  const initiallyKnown = initial !== null
  useEffect(() => {
    mounted.current = true
    if (!initiallyKnown) void load(true)
    return () => {
      mounted.current = false
    }
  }, [initiallyKnown, load])

  const submitPassword = useCallback(
    async (password: string): Promise<PasswordError | null> => {
      try {
        await api.post(shareApiPaths.token(shareId), { password })
      } catch (error) {
        if (isApiError(error) && error.error === 'wrong_password') return { kind: 'wrong' }
        if (isApiError(error) && error.statusCode === 429) return { kind: 'tooMany', retryAfter: error.retryAfter }
        const next = stateOfError(error)
        if (next.kind === 'unknown' || next.kind === 'passwordRequired') return { kind: 'unknown' }
        show(next)
        return null
      }
      await load(false)
      return null
    },
    [shareId, show, load]
  )

  return { state, passwordOpen, setPasswordOpen, submitPassword }
}
