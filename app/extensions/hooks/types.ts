/**
 * The hook catalog: every point of the share lifecycle where plugins may
 * step in. Two kinds:
 *
 * - **Filter hooks** (`domain:before_verb`): run BEFORE the fact, sequentially
 *   in registration order. Each handler receives the payload and returns a
 *   changed payload (or nothing to keep it); throwing (preferably
 *   `HookRefusedException`) refuses the operation and stops the chain.
 * - **Action events** (`domain:verb_ed`): emitted AFTER the fact through the
 *   AdonisJS emitter; listeners run in parallel, cannot veto, and their
 *   errors are logged, never thrown to the emitter.
 *
 * Payloads are deliberately small (ids and the fields a plugin may change);
 * they grow as the features land. The core's reverse shares are built on
 * these hooks like any plugin (`#services/reverse_shares/reverse_share_hooks`).
 */
import type { DateTime } from 'luxon'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/** A reverse share a new share is created through (set by a `share:before_authorize_create` handler). */
export interface ReverseShareForCreation {
  id: string
  /** The expiry every share of it takes (null = never). */
  shareExpiration: DateTime | null
}

/**
 * Payload of `share:before_authorize_create`, run before SharePolicy decides
 * whether the caller may create a share: a share made through a reverse
 * share may be created by anyone holding its token.
 */
export interface ShareBeforeAuthorizeCreatePayload {
  /** The signed-in creator, null for a visitor. */
  creatorId: string | null
  /** Digest of a visitor's ownership cookie (null for a signed-in creator, or none yet). */
  ownerTokenHash: string | null
  /** The `reverse_share_token` cookie of the request (read by the controller), null without one. */
  reverseShareToken: string | null
  /** The reverse share the share is made through; handlers set it (null: none). */
  reverseShare: ReverseShareForCreation | null
}

/** Payload of `share:before_create`. */
export interface ShareBeforeCreatePayload {
  share: {
    id: string
    name?: string | null
    description?: string | null
    /** ISO date, or null for a share that never expires. */
    expiration?: string | null
    recipients: string[]
    security?: { password?: string | null; maxViews?: number | null }
  }
  /** The creating user, null for anonymous shares. */
  creatorId: string | null
  /** Set when the share is created through a reverse share. */
  reverseShareId?: string | null
}

/**
 * Payload of `share:before_insert`, run inside the transaction that stores a
 * new share, before its row is written. Handlers write through `client`, so
 * what they change commits or rolls back with the share; throwing refuses the
 * share (nothing of it is stored). Keep handlers short: the transaction holds
 * its locks until they return.
 */
export interface ShareBeforeInsertPayload {
  shareId: string
  creatorId: string | null
  /** Digest of the visitor's ownership cookie the share is stored with (null for a signed-in creator). */
  ownerTokenHash: string | null
  reverseShareId: string | null
  /**
   * Set by the handler that took one of the reverse share's uses for this
   * share; stored with it, so that removing it unfinished gives the use back.
   */
  reverseShareUseReserved: boolean
  /** The share's transaction. */
  client: TransactionClientContract
}

/**
 * Payload of `share:before_delete`, run inside the transaction that removes a
 * share's rows (deleted by its owner, an admin or a job, or expired), before
 * they go; its stored files are already removed. Handlers write through
 * `client`; they should not refuse (the files are gone).
 */
export interface ShareBeforeDeletePayload {
  shareId: string
  reverseShareId: string | null
  /** The removal's transaction. */
  client: TransactionClientContract
}

/**
 * Payload of `share:before_complete`. The core has already claimed the
 * completion (so concurrent calls run the chain once); when a handler throws,
 * the core reopens the share and answers the error.
 */
export interface ShareBeforeCompletePayload {
  shareId: string
  creatorId: string | null
  reverseShareId: string | null
  /** False when the share was completed before, reopened and completed again: once-only work skips it. */
  firstCompletion: boolean
  /** Extra keys of the completion reply (`notifyReverseShareCreator` for shares of a reverse share). */
  reply: Record<string, unknown>
}

/** Payload of `share:before_upload`. */
export interface ShareBeforeUploadPayload {
  shareId: string
  reverseShareId: string | null
  /** A cap on the share's total size in bytes, lower than `share.maxSize`; null = none. Handlers only lower it. */
  maxShareSize: number | null
}

/** Payload of `share:before_access`. */
export interface ShareBeforeAccessPayload {
  shareId: string
  creatorId: string | null
  reverseShareId: string | null
  /** The signed-in caller, null for a visitor. */
  userId: string | null
  /** True: the caller may not see the share (403 `private_share`). Handlers set it. */
  private: boolean
}

/** Payload of `file:before_store`. */
export interface FileBeforeStorePayload {
  shareId: string
  file: { id?: string; name: string; size: number; mimeType?: string | null }
  /** The disk the file is going to (a handler may pick another registered disk). */
  disk: string
}

/** Payload of `download:before_serve`. */
export interface DownloadBeforeServePayload {
  shareId: string
  /** null when the whole share is served as a zip. */
  fileId: string | null
  fileName: string
  /** Extra response headers handlers may add. */
  headers: Record<string, string>
}

/** Filter hooks: name -> payload (handlers return the same type). */
export interface FilterHooks {
  /** Filter: which reverse share a new share is made through (before the creation is authorized); throw to refuse. */
  'share:before_authorize_create': ShareBeforeAuthorizeCreatePayload
  /** Filter: before a share is created; may change fields or refuse. */
  'share:before_create': ShareBeforeCreatePayload
  /** Filter: inside the share's transaction, before its row is written; may write through `client` or refuse. */
  'share:before_insert': ShareBeforeInsertPayload
  /** Filter: inside the transaction that removes a share's rows, before they go; may write through `client`. */
  'share:before_delete': ShareBeforeDeletePayload
  /** Filter: a claimed completion, before it is announced; may add reply keys or refuse. */
  'share:before_complete': ShareBeforeCompletePayload
  /** Filter: before a chunk is accepted into a share; may lower the share's size cap or refuse. */
  'share:before_upload': ShareBeforeUploadPayload
  /** Filter: before a caller sees a share or downloads from it; may mark it private or refuse. */
  'share:before_access': ShareBeforeAccessPayload
  /** Filter: before an uploaded file is stored; may rename, re-route or refuse. */
  'file:before_store': FileBeforeStorePayload
  /** Filter: before a file or zip is served; may add headers or refuse. */
  'download:before_serve': DownloadBeforeServePayload
}

/** Action events: name -> payload (AdonisJS `EventsList` entries). */
export interface ActionEvents {
  /** Action: a share was created (files may still be uploading). */
  'share:created': { shareId: string; creatorId: string | null }
  /** Action: the uploads of a share were completed. */
  'share:completed': { shareId: string; creatorId: string | null; fileCount: number; size: number }
  /** Action: a file (fileId) or the zip (null) of a share was downloaded. */
  'share:downloaded': { shareId: string; fileId: string | null }
  /** Action: a share expired and was cleaned up. */
  'share:expired': { shareId: string }
  /** Action: a share was deleted (by its owner, an admin or a job). */
  'share:deleted': { shareId: string; reason?: string | null }
  /** Action: a reverse share was used to create a share. */
  'reverse_share:used': { reverseShareId: string; shareId: string }
}

/** Names of the filter hooks. */
export type FilterHookName = keyof FilterHooks
/** Names of the action events. */
export type ActionEventName = keyof ActionEvents
/** Any hook name of the catalog. */
export type HookName = FilterHookName | ActionEventName

/** A filter handler: returns the changed payload, or nothing to keep it; throws to refuse. */
export type FilterHandler<Name extends FilterHookName> = (
  payload: FilterHooks[Name]
) => FilterHooks[Name] | void | Promise<FilterHooks[Name] | void>

/** An action listener. */
export type ActionListener<Name extends ActionEventName> = (
  payload: ActionEvents[Name]
) => void | Promise<void>

/** Every filter hook name, in catalog order. */
export const FILTER_HOOKS: readonly FilterHookName[] = [
  'share:before_authorize_create',
  'share:before_create',
  'share:before_insert',
  'share:before_delete',
  'share:before_complete',
  'share:before_upload',
  'share:before_access',
  'file:before_store',
  'download:before_serve',
]

/** Every action event name, in catalog order. */
export const ACTION_EVENTS: readonly ActionEventName[] = [
  'share:created',
  'share:completed',
  'share:downloaded',
  'share:expired',
  'share:deleted',
  'reverse_share:used',
]

declare module '@adonisjs/core/types' {
  interface EventsList extends ActionEvents {}
}
