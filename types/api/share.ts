/**
 * The share objects of the shares API (`/api/shares*`), shared by the server
 * (ShareTransformer returns them) and the browser code (which imports them
 * as `#api/share`). File sizes are decimal strings, other sizes numbers;
 * dates ISO-8601 UTC; a share that never expires reports epoch 0.
 * Plain types only: this folder imports nothing from the server or the browser.
 */

/** A file of a share: `size` is a decimal string of bytes. */
export interface ShareFileInfo {
  id: string
  name: string
  size: string
}

/** The "created/completed share" object of `POST /api/shares` and `POST /api/shares/:id/complete`. */
export interface CreatedShare {
  id: string
  name: string | null
  /** ISO date; the epoch (1970-01-01T00:00:00.000Z) means "never expires". */
  expiration: string
  description: string | null
  /** Completion of a share made through a reverse share: whether its creator is told. */
  notifyReverseShareCreator?: boolean
}

/** The "share" object (`GET /api/shares/:id`, `/from-owner`, `PATCH`, `DELETE .../complete`). */
export interface Share extends CreatedShare {
  hasPassword: boolean
  creator: { username: string } | null
  files: ShareFileInfo[]
  size: number
}

/** The "my share" object of `GET /api/shares` (and of a reverse share's shares). */
export interface MyShare extends CreatedShare {
  size: number
  views: number
  createdAt: string
  recipients: string[]
  files: ShareFileInfo[]
  security: { maxViews?: number; passwordProtected: boolean }
}

/** The "admin share" object of `GET /api/shares/all`. */
export interface AdminShare extends CreatedShare {
  size: number
  views: number
  createdAt: string
  creator: { username: string } | null
}

/** `GET /api/shares/:id/metaData`. */
export interface ShareMetaData {
  id: string
  isZipReady: boolean
}

/** `GET /api/shares/isShareIdAvailable/:id`. */
export interface ShareIdAvailability {
  isAvailable: boolean
}

/** What the share edit page gets for its owner beyond the "share" object. */
export interface ShareEditSettings {
  /**
   * The share's current view limit (null: none). The "share" object of
   * `GET /api/shares/:id/from-owner` has no view limit, so the page gets it here.
   */
  maxViews: number | null
  /** True for a share made through a reverse share: its link set the expiration, which cannot be edited. */
  expirationFixed: boolean
}

/**
 * What the server already knows about a share when it renders its page
 * (`/share/:id`, see SharePageState): a state to show (not found, expired,
 * removed, private, visitor limit exceeded), the step of the token flow to
 * start with (`passwordRequired`: the password modal; `tokenRequired`: ask
 * for a token, then the share), or `null`: the browser holds a valid token,
 * the page GETs the share.
 */
export type ShareViewInitialState =
  | { kind: 'notFound' }
  | { kind: 'expired' }
  | { kind: 'removed'; reason: string }
  | { kind: 'privateShare' }
  | { kind: 'visitorLimit' }
  | { kind: 'passwordRequired' }
  | { kind: 'tokenRequired' }
  | null

/** Props of the share view page (`share/show`; a type alias: Inertia's page map needs one). */
export type ShareShowPageProps = {
  shareId: string
  /** What the server already knows (see ShareViewInitialState). */
  initialState: ShareViewInitialState
}

/**
 * Who may use the share edit page, decided when the page is requested:
 * `owner` (the creator, an admin, or the browser owning a visitor's share),
 * `forbidden` (answered 403) or `notFound` (answered 404).
 */
export type ShareEditAccess = 'owner' | 'forbidden' | 'notFound'

/** Props of the share edit page (`share/edit`); the settings only for its owner. */
export type ShareEditPageProps = {
  shareId: string
  access: ShareEditAccess
  /** The share's view limit (null: none, or not the owner). */
  maxViews: number | null
  /** True for a share made through a reverse share: its link set the expiration, which cannot be edited. */
  expirationFixed?: boolean
}
