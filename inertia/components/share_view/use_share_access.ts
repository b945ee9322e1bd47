/**
 * The token flow of the share view (`POST /api/shares/:id/token`), as a
 * state machine. The server tells the page where to start (SharePageState),
 * so a normal visit makes no call that is refused (a refused call is a red
 * error in the browser's console):
 *
 * 1. `null` (the browser holds a valid `share_<id>_token` cookie, an earlier
 *    visit in this browser session): `GET /api/shares/:id` shows the share
 *    without counting a view.
 * 2. `tokenRequired`: `POST /api/shares/:id/token` without a password (counts
 *    one view), then the GET.
 * 3. `passwordRequired`: the password modal at once; its submit posts the
 *    password, then GETs the share.
 *
 * The API's refusals still lead where they should (a token that expired
 * meanwhile: `share_token_required` gets a new one once). Every other answer,
 * and the states the server rendered, are the page's states: not found,
 * expired, removed (with the admin's reason), visitor limit exceeded,
 * private share, or unknown.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, isApiError } from '~/lib/api'
import type { Share, ShareViewInitialState } from '#api/share'
import { shareApiPaths } from '~/components/share_view/share_api'

/** What the share view shows. */
export type ShareViewState =
  | { kind: 'loading' }
  | { kind: 'available'; share: Share }
  | { kind: 'passwordRequired' }
  | { kind: 'notFound' }
  | { kind: 'expired' }
  | { kind: 'removed'; reason: string }
  | { kind: 'visitorLimit' }
  | { kind: 'privateShare' }
  | { kind: 'unknown' }

/** Why a password was refused (the modal shows it under the field). */
export type PasswordError =
  { kind: 'wrong' } | { kind: 'tooMany'; retryAfter: number | null } | { kind: 'unknown' }

/** The state an API error of the share routes leads to. */
export function stateOfError(error: unknown): ShareViewState {
  if (!isApiError(error)) return { kind: 'unknown' }
  if (error.statusCode === 404) {
    return error.error === 'share_removed'
      ? { kind: 'removed', reason: error.messages.join(' ') }
      : { kind: 'notFound' }
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

/** The first state shown for what the server rendered (a token still to fetch or GET: loading). */
function firstState(initial: ShareViewInitialState): ShareViewState {
  return initial === null || initial.kind === 'tokenRequired' ? { kind: 'loading' } : initial
}

/**
 * Runs the token flow for `shareId` from `initial`, what the server already
 * knows (see the module comment).
 */
export function useShareAccess(shareId: string, initial: ShareViewInitialState): ShareAccess {
  const [state, setState] = useState<ShareViewState>(() => firstState(initial))
  const [passwordOpen, setPasswordOpen] = useState(false)
  const mounted = useRef(true)

  const show = useCallback((next: ShareViewState) => {
    if (!mounted.current) return
    setState(next)
    setPasswordOpen(next.kind === 'passwordRequired')
  }, [])

  /** GETs the share; on `share_token_required` gets a token once (no password) and retries. */
  const load = useCallback(
    (mayRequestToken: boolean): Promise<void> => {
      const get = async (tokenAllowed: boolean): Promise<void> => {
        try {
          show({ kind: 'available', share: await api.get<Share>(shareApiPaths.share(shareId)) })
        } catch (error) {
          if (tokenAllowed && isApiError(error) && error.error === 'share_token_required') {
            try {
              await api.post(shareApiPaths.token(shareId), {})
            } catch (tokenError) {
              return show(stateOfError(tokenError))
            }
            return get(false)
          }
          show(stateOfError(error))
        }
      }
      return get(mayRequestToken)
    },
    [shareId, show]
  )

  /** Gets a token without a password (counts one view), then the share. */
  const fetchToken = useCallback(async (): Promise<void> => {
    try {
      await api.post(shareApiPaths.token(shareId), {})
    } catch (tokenError) {
      return show(stateOfError(tokenError))
    }
    return load(false)
  }, [shareId, show, load])

  // The flow runs once per share page (the page is keyed by the share id).
  const start =
    initial === null
      ? 'load'
      : initial.kind === 'tokenRequired'
        ? 'token'
        : initial.kind === 'passwordRequired'
          ? 'password'
          : 'none'
  useEffect(() => {
    mounted.current = true
    if (start === 'load') void load(true)
    else if (start === 'token') void fetchToken()
    // Opened once hydrated: the server renders the "Password required" page, not the (lazy) modal.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- opened after hydration, see the comment above
    else if (start === 'password') setPasswordOpen(true)
    return () => {
      mounted.current = false
    }
  }, [start, load, fetchToken])

  const submitPassword = useCallback(
    async (password: string): Promise<PasswordError | null> => {
      try {
        await api.post(shareApiPaths.token(shareId), { password })
      } catch (error) {
        if (isApiError(error) && error.error === 'wrong_password') return { kind: 'wrong' }
        if (isApiError(error) && error.statusCode === 429)
          return { kind: 'tooMany', retryAfter: error.retryAfter }
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
