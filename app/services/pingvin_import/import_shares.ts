/**
 * The reverse shares and shares of a Pingvin import (importer.ts). A share
 * is imported in three steps: its rows inserted incomplete with pending
 * ledger rows, its files copied (copy_files.ts), then everything marked
 * complete; a share a crashed run left pending is finished by the next one.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { sqlDateTime } from '#services/auth/tokens'
import { storageKeyFor } from '#services/files/file_storage'
import { mimeTypeOf } from '#services/files/upload_sessions'
import { copyFiles, type FileUnit } from '#services/pingvin_import/copy_files'
import {
  describeKey,
  key,
  LEDGER,
  RowSkipped,
  SHARE_ID,
  type ImportRun,
} from '#services/pingvin_import/import_run'
import {
  parseBoolean,
  parseCount,
  parseExpiration,
  parseOptionalText,
  parseSize,
  parseText,
  parseTimestamp,
  PingvinValueError,
} from '#services/pingvin_import/parsers'
import type { PingvinRow } from '#services/pingvin_import/source'

export async function importReverseShares(run: ImportRun) {
  const counts = run.report.tables.ReverseShare
  for (const row of run.source.rows('ReverseShare')) {
    counts.read++
    const rowKey = describeKey(row)
    if (run.ledger.has(`ReverseShare:${row.id}`)) {
      counts.alreadyImported++
      run.reverseShares.add(String(row.id))
      continue
    }
    try {
      const id = key(row.id, 'id')
      const token = parseText(row.token, 'token', 128)
      const creatorId = key(row.creatorId, 'creatorId')
      const createdAt = sqlDateTime(parseTimestamp(row.createdAt, 'createdAt'))
      const expiration = parseExpiration(row.shareExpiration, 'shareExpiration')
      const values = {
        id,
        token,
        creator_id: creatorId,
        share_expiration: expiration ? sqlDateTime(expiration) : null,
        max_share_size: parseSize(row.maxShareSize, 'maxShareSize'),
        send_email_notification: parseBoolean(
          row.sendEmailNotification,
          'sendEmailNotification',
          false
        ),
        remaining_uses: parseCount(row.remainingUses, 'remainingUses'),
        simplified: parseBoolean(row.simplified, 'simplified', false),
        public_access: parseBoolean(row.publicAccess, 'publicAccess', true),
        created_at: createdAt,
        updated_at: createdAt,
      }
      if (!run.users.has(creatorId)) throw new RowSkipped(`parent User ${creatorId} not imported`)
      if (await db.from('reverse_shares').where('id', id).first())
        throw new RowSkipped('collision: reverse_shares.id is taken', 'collision')
      if (await db.from('reverse_shares').where('token', token).first())
        throw new RowSkipped('collision: the token is taken', 'collision')
      if (!run.options.dryRun) {
        await db.transaction(async (trx) => {
          await trx.table('reverse_shares').insert(values)
          await run.record(trx, 'ReverseShare', id, 'reverse_shares', id, 'done')
        })
      }
      run.reverseShares.add(id)
      counts.imported++
    } catch (error) {
      run.skip('ReverseShare', rowKey, error)
    }
  }
}

export async function importShares(run: ImportRun, diskName: string) {
  const counts = run.report.tables
  const byShare = (table: string) => {
    const map = new Map<string, PingvinRow[]>()
    for (const row of run.source.rows(table)) {
      counts[table].read++
      const shareId = typeof row.shareId === 'string' ? row.shareId : ''
      map.set(shareId, [...(map.get(shareId) ?? []), row])
    }
    return map
  }
  const files = byShare('File')
  const securities = byShare('ShareSecurity')
  const recipients = byShare('ShareRecipient')
  for (const orphan of securities.get('') ?? []) {
    run.skip('ShareSecurity', describeKey(orphan), new RowSkipped('belongs to no share', 'info'))
  }
  securities.delete('')
  const shareIds = new Set<string>()
  for (const row of run.source.rows('Share')) {
    counts.Share.read++
    const rowKey = describeKey(row)
    if (typeof row.id === 'string') shareIds.add(row.id)
    const children = {
      files: files.get(String(row.id)) ?? [],
      securities: securities.get(String(row.id)) ?? [],
      recipients: recipients.get(String(row.id)) ?? [],
    }
    try {
      await importShare(run, row, children, diskName)
    } catch (error) {
      run.skip('Share', rowKey, error)
      const reason = new RowSkipped(`parent Share ${rowKey} not imported`)
      for (const file of children.files) run.skip('File', describeKey(file), reason)
      for (const security of children.securities)
        run.skip('ShareSecurity', describeKey(security), reason)
      for (const recipient of children.recipients)
        run.skip('ShareRecipient', describeKey(recipient), reason)
    }
  }
  for (const [table, map] of [
    ['File', files],
    ['ShareSecurity', securities],
    ['ShareRecipient', recipients],
  ] as const) {
    for (const [shareId, rows] of map) {
      if (shareIds.has(shareId)) continue
      for (const row of rows)
        run.skip(
          table,
          describeKey(row),
          new RowSkipped(`share ${shareId || '(none)'} does not exist in the source`)
        )
    }
  }
}

async function importShare(
  run: ImportRun,
  row: PingvinRow,
  children: { files: PingvinRow[]; securities: PingvinRow[]; recipients: PingvinRow[] },
  diskName: string
) {
  const counts = run.report.tables
  const ledgerEntry = run.ledger.get(`Share:${row.id}`)
  if (ledgerEntry?.state === 'done') {
    counts.Share.alreadyImported++
    counts.File.alreadyImported += children.files.filter((file) =>
      run.ledger.has(`File:${file.id}`)
    ).length
    counts.ShareSecurity.alreadyImported += children.securities.filter((s) =>
      run.ledger.has(`ShareSecurity:${s.id}`)
    ).length
    counts.ShareRecipient.alreadyImported += children.recipients.filter((r) =>
      run.ledger.has(`ShareRecipient:${r.id}`)
    ).length
    return
  }
  const id = typeof row.id === 'string' ? row.id : ''
  if (!SHARE_ID.test(id))
    throw new RowSkipped(
      'the share id is not 3-50 letters, digits, "-" or "_": Tern cannot serve it'
    )
  if (ledgerEntry?.state === 'pending') {
    const stillThere = await db.from('shares').where('id', id).first()
    if (stillThere && !run.options.dryRun) {
      await resumeShare(run, id, children.files, diskName)
      return
    }
    if (!run.options.dryRun) await forgetUnit(run, id, children)
  }

  // Parse and check everything before writing anything.
  const createdAt = parseTimestamp(row.createdAt, 'createdAt')
  const expiration = parseExpiration(row.expiration, 'expiration')
  if (!parseBoolean(row.uploadLocked, 'uploadLocked', true))
    throw new RowSkipped('unfinished upload (Pingvin never showed it)')
  if (expiration && expiration <= DateTime.utc()) throw new RowSkipped('expired')
  const storageProvider = row.storageProvider === undefined ? 'LOCAL' : String(row.storageProvider)
  if (storageProvider !== 'LOCAL') {
    throw new RowSkipped(
      `its files are in Pingvin's ${storageProvider} bucket, not in uploads/: importing them is not supported`
    )
  }
  const creatorId =
    row.creatorId === null || row.creatorId === undefined ? null : key(row.creatorId, 'creatorId')
  if (creatorId && !run.users.has(creatorId))
    throw new RowSkipped(`parent User ${creatorId} not imported`)
  const reverseShareId =
    row.reverseShareId === null || row.reverseShareId === undefined
      ? null
      : key(row.reverseShareId, 'reverseShareId')
  if (reverseShareId && !run.reverseShares.has(reverseShareId)) {
    throw new RowSkipped(`parent ReverseShare ${reverseShareId} not imported`)
  }
  const share = {
    id,
    name: parseOptionalText(row.name, 'name', 255),
    description: parseOptionalText(row.description, 'description'),
    expiration: expiration ? sqlDateTime(expiration) : null,
    views: parseCount(row.views ?? 0, 'views'),
    completed: false,
    completed_at: null,
    removed_reason: parseOptionalText(row.removedReason, 'removedReason'),
    creator_id: creatorId,
    reverse_share_id: reverseShareId,
    owner_token_hash: null,
    created_at: sqlDateTime(createdAt),
    updated_at: sqlDateTime(createdAt),
  }
  if (await db.from('shares').where('id', id).first())
    throw new RowSkipped('collision: shares.id is taken', 'collision')

  let security: Record<string, unknown> | null = null
  for (const [index, candidate] of children.securities.entries()) {
    try {
      if (index > 0) throw new RowSkipped('a second security row for the share')
      const securityId = key(candidate.id, 'id')
      if (await db.from('share_securities').where('id', securityId).first()) {
        throw new RowSkipped('collision: share_securities.id is taken', 'collision')
      }
      const securityCreated =
        candidate.createdAt === undefined
          ? createdAt
          : parseTimestamp(candidate.createdAt, 'createdAt')
      security = {
        id: securityId,
        share_id: id,
        password: parseOptionalText(candidate.password, 'password', 255),
        max_views:
          candidate.maxViews === null || candidate.maxViews === undefined
            ? null
            : parseCount(candidate.maxViews, 'maxViews'),
        created_at: sqlDateTime(securityCreated),
        updated_at: sqlDateTime(securityCreated),
      }
    } catch (error) {
      // A share whose protection cannot be carried over must not become public.
      throw new RowSkipped(
        `its security row ${describeKey(candidate)} cannot be imported (${(error as Error).message})`
      )
    }
  }

  const recipientRows: Record<string, unknown>[] = []
  for (const candidate of children.recipients) {
    try {
      const recipientId = key(candidate.id, 'id')
      if (await db.from('share_recipients').where('id', recipientId).first()) {
        throw new RowSkipped('collision: share_recipients.id is taken', 'collision')
      }
      recipientRows.push({
        id: recipientId,
        share_id: id,
        email: parseText(candidate.email, 'email', 255),
        created_at: sqlDateTime(createdAt),
      })
    } catch (error) {
      run.skip('ShareRecipient', describeKey(candidate), error)
    }
  }

  const units: FileUnit[] = []
  for (const candidate of children.files) {
    try {
      const fileId = key(candidate.id, 'id')
      if (fileId.includes('/') || fileId.includes('\\') || fileId.startsWith('.'))
        throw new PingvinValueError('id: not a file id')
      if (await db.from('files').where('id', fileId).first())
        throw new RowSkipped('collision: files.id is taken', 'collision')
      const source = join(run.options.paths.uploads, 'shares', id, fileId)
      const info = await stat(source).catch(() => null)
      if (!info?.isFile()) throw new RowSkipped(`file data missing: ${source}`)
      units.push({
        row: candidate,
        id: fileId,
        name: parseText(candidate.name, 'name', 255),
        declaredSize: parseSize(candidate.size, 'size'),
        createdAt:
          candidate.createdAt === undefined
            ? createdAt
            : parseTimestamp(candidate.createdAt, 'createdAt'),
        source,
      })
    } catch (error) {
      run.skip('File', describeKey(candidate), error)
    }
  }
  if (units.length === 0) throw new RowSkipped('no file of the share can be imported')

  if (run.options.dryRun) {
    counts.Share.imported++
    counts.File.imported += units.length
    counts.ShareSecurity.imported += security ? 1 : 0
    counts.ShareRecipient.imported += recipientRows.length
    return
  }

  // Step 1: rows, incomplete, with their ledger rows pending.
  await db.transaction(async (trx) => {
    await trx.table('shares').insert(share)
    await run.record(trx, 'Share', id, 'shares', id, 'pending')
    if (security) {
      await trx.table('share_securities').insert(security)
      await run.record(
        trx,
        'ShareSecurity',
        String(security.id),
        'share_securities',
        String(security.id),
        'pending'
      )
    }
    for (const recipient of recipientRows) {
      await trx.table('share_recipients').insert(recipient)
      await run.record(
        trx,
        'ShareRecipient',
        String(recipient.id),
        'share_recipients',
        String(recipient.id),
        'pending'
      )
    }
    for (const unit of units) {
      await trx.table('files').insert({
        id: unit.id,
        share_id: id,
        name: unit.name,
        size: unit.declaredSize,
        mime_type: mimeTypeOf(unit.name),
        disk: diskName,
        storage_key: storageKeyFor(id, unit.id),
        completed: false,
        upload_key: null,
        created_at: sqlDateTime(unit.createdAt),
        updated_at: sqlDateTime(unit.createdAt),
      })
      await run.record(trx, 'File', unit.id, 'files', unit.id, 'pending')
    }
  })
  // Steps 2 and 3.
  const copied = await copyFiles(run, id, units, diskName)
  await completeShare(run, id, share.created_at, units, copied)
  if (copied.size > 0) {
    counts.Share.imported++
    counts.ShareSecurity.imported += security ? 1 : 0
    counts.ShareRecipient.imported += recipientRows.length
  }
}

/** Step 3: files and share complete, ledger done; files not copied (and a share left empty) removed. */
async function completeShare(
  run: ImportRun,
  shareId: string,
  createdAt: string,
  units: FileUnit[],
  copied: Map<string, number>
) {
  const sourceId = run.report.sourceId
  await db.transaction(async (trx) => {
    const failed = units.filter((unit) => !copied.has(unit.id)).map((unit) => unit.id)
    if (copied.size === 0) {
      const keys = [
        shareId,
        ...units.map((unit) => unit.id),
        ...(await pendingChildKeys(trx, shareId)),
      ]
      for (const table of ['files', 'share_securities', 'share_recipients']) {
        await trx.from(table).where('share_id', shareId).delete()
      }
      await trx.from('shares').where('id', shareId).delete()
      await trx
        .from(LEDGER)
        .where('source_id', sourceId)
        .where('state', 'pending')
        .whereIn('source_key', keys)
        .delete()
      run.line('skipped', 'Share', shareId, 'none of its files could be copied')
      run.report.tables.Share.skipped++
      return
    }
    if (failed.length) {
      await trx.from('files').whereIn('id', failed).delete()
      await trx
        .from(LEDGER)
        .where('source_id', sourceId)
        .where('source_table', 'File')
        .whereIn('source_key', failed)
        .delete()
    }
    for (const [fileId, size] of copied) {
      await trx.from('files').where('id', fileId).update({ size, completed: true })
    }
    await trx
      .from('shares')
      .where('id', shareId)
      .update({ completed: true, completed_at: createdAt })
    const keys = [shareId, ...copied.keys(), ...(await pendingChildKeys(trx, shareId))]
    await trx
      .from(LEDGER)
      .where('source_id', sourceId)
      .where('state', 'pending')
      .whereIn('source_key', keys)
      .update({ state: 'done' })
  })
}

/** Ledger keys of the security and recipient rows of a share. */
async function pendingChildKeys(
  trx: TransactionClientContract,
  shareId: string
): Promise<string[]> {
  const security = await trx.from('share_securities').where('share_id', shareId).select('id')
  const recipients = await trx.from('share_recipients').where('share_id', shareId).select('id')
  return [...security, ...recipients].map((row) => String(row.id))
}

/** A share left pending by a run that died: copy its files again and complete it. */
async function resumeShare(
  run: ImportRun,
  shareId: string,
  fileRows: PingvinRow[],
  diskName: string
) {
  run.line('info', 'Share', shareId, 'finishing an import a previous run left unfinished')
  const files = await db
    .from('files')
    .where('share_id', shareId)
    .select('id', 'name', 'size', 'created_at')
  const units: FileUnit[] = files.map((file) => ({
    row: fileRows.find((row) => row.id === file.id) ?? {},
    id: String(file.id),
    name: String(file.name),
    declaredSize: Number(file.size),
    createdAt: DateTime.utc(),
    source: join(run.options.paths.uploads, 'shares', shareId, String(file.id)),
  }))
  const share = await db.from('shares').where('id', shareId).select('created_at').firstOrFail()
  const createdAt =
    share.created_at instanceof Date
      ? sqlDateTime(DateTime.fromJSDate(share.created_at))
      : String(share.created_at)
  const copied = await copyFiles(run, shareId, units, diskName)
  await completeShare(run, shareId, createdAt, units, copied)
  if (copied.size > 0) run.report.tables.Share.imported++
}

/** Forgets the ledger rows of a pending share that no longer exists in Tern, so it is imported afresh. */
async function forgetUnit(
  run: ImportRun,
  shareId: string,
  children: { files: PingvinRow[]; securities: PingvinRow[]; recipients: PingvinRow[] }
) {
  const keys = [
    shareId,
    ...[...children.files, ...children.securities, ...children.recipients].map((row) =>
      String(row.id)
    ),
  ]
  await db
    .from(LEDGER)
    .where('source_id', run.report.sourceId)
    .where('state', 'pending')
    .whereIn('source_key', keys)
    .delete()
  for (const k of keys) {
    for (const table of ['Share', 'File', 'ShareSecurity', 'ShareRecipient'])
      run.ledger.delete(`${table}:${k}`)
  }
}

/** Folders under uploads/shares with no Share row: listed (never touched). */
export async function reportOrphanFolders(run: ImportRun) {
  const root = join(run.options.paths.uploads, 'shares')
  const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
  const known = new Set(run.source.rows('Share').map((row) => String(row.id)))
  for (const entry of entries) {
    if (entry.isDirectory() && !known.has(entry.name)) {
      run.line(
        'info',
        'uploads',
        entry.name,
        'folder without a share in the database: not imported'
      )
    }
  }
}
