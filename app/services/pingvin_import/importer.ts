/**
 * `node ace pingvin:import`: copies a Pingvin Share instance into Tern
 * (docs/design/pingvin_import.md). Order, so foreign keys hold: config,
 * users (with their social and LDAP links), reverse shares, then shares one
 * by one in three steps: rows inserted incomplete, bytes copied through the
 * storage facade to the target disk, then everything marked complete, so a
 * crash leaves nothing half-visible and a re-run finishes it. Every row
 * written is recorded in the ledger `pingvin_import_rows` in the same
 * transaction, so a second run imports nothing twice. Rows whose id or
 * unique key Tern already holds are reported as collisions, never
 * overwritten. Writes go through the query builder only (SQLite, MySQL and
 * PostgreSQL alike); users are inserted without the model, so the model
 * hook does not hash Pingvin's argon2 hash again.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import app from '@adonisjs/core/services/app'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import { storage } from '#extensions/storage/main'
import { sqlDateTime } from '#services/auth/tokens'
import { storageKeyFor } from '#services/files/file_storage'
import ConfigService from '#services/config/config_service'
import { mimeTypeOf } from '#services/files/upload_sessions'
import { importPingvinConfig, type PingvinConfigRow } from '#services/pingvin_import/config_mapping'
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
import { emptyReport, type ImportReport, type ReportLine } from '#services/pingvin_import/report'
import {
  PingvinSource,
  PingvinSourceError,
  type PingvinPaths,
  type PingvinRow,
} from '#services/pingvin_import/source'

/** Options of one run. */
export interface PingvinImportOptions {
  paths: PingvinPaths
  /** Read, check and report, but write nothing (no rows, no ledger, no storage). */
  dryRun: boolean
  /** Import into a Tern that already holds other data (collisions are still reported, never overwritten). */
  merge: boolean
  /** The storage disk for the files (default: the disk new uploads go to). */
  disk?: string
  /** Called with progress lines. */
  log?: (line: string) => void
}

const LEDGER = 'pingvin_import_rows'
const SHARE_ID = /^[A-Za-z0-9_-]{3,50}$/
const ROW_ID_MAX = 36
/** The uuid v5 namespace of the LDAP links (`social_accounts` ids derived from the DN). */
const LDAP_NAMESPACE = '6f0b7a4e-3c1d-5e8f-9a2b-4c6d8e0f1a3b'

/** A row that cannot be imported; the message goes to the report. */
class RowSkipped extends Error {
  constructor(
    message: string,
    readonly level: ReportLine['level'] = 'skipped'
  ) {
    super(message)
  }
}

interface LedgerEntry {
  state: 'pending' | 'done'
  targetKey: string
}

interface FileUnit {
  row: PingvinRow
  id: string
  name: string
  declaredSize: number
  createdAt: DateTime
  source: string
}

/** uuid v5 (RFC 4122, SHA-1) of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = LDAP_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex')
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16)
  bytes[6] = (bytes[6] & 0x0f) | 0x50
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function key(value: unknown, column: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new PingvinValueError(`${column}: missing`)
  if (value.length > ROW_ID_MAX)
    throw new PingvinValueError(`${column}: longer than ${ROW_ID_MAX} characters`)
  return value
}

function describeKey(row: PingvinRow): string {
  return typeof row.id === 'string' && row.id
    ? row.id
    : `(row without id: ${JSON.stringify(row).slice(0, 80)})`
}

/** One import run; use `run()` once. */
export class PingvinImporter {
  #options: PingvinImportOptions
  #source!: PingvinSource
  #report!: ImportReport
  #ledger = new Map<string, LedgerEntry>()
  #users = new Set<string>()
  /** Lower-cased usernames and e-mails imported by this run (a dry run writes none, yet must see them). */
  #taken = new Map<string, string>()
  #reverseShares = new Set<string>()

  constructor(options: PingvinImportOptions) {
    this.#options = options
  }

  #log(line: string) {
    this.#options.log?.(line)
  }

  #line(level: ReportLine['level'], table: string, rowKey: string, reason: string) {
    this.#report.lines.push({ level, table, key: rowKey, reason })
  }

  #skip(table: string, rowKey: string, error: unknown) {
    if (!(error instanceof RowSkipped) && !(error instanceof PingvinValueError)) throw error
    const level = error instanceof RowSkipped ? error.level : 'skipped'
    this.#report.tables[table].skipped++
    this.#line(level, table, rowKey, error.message)
  }

  /** Runs the import; resolves to the report (`refused` set when nothing could be done). */
  async run(): Promise<ImportReport> {
    this.#source = await PingvinSource.open(this.#options.paths.db)
    try {
      const sourceId = this.#source.sourceId()
      this.#report = emptyReport(sourceId, this.#options)
      this.#report.schemaLevel = this.#source.schemaLevel()
      const [acquired] = await lock
        .createLock('pingvin:import', '6h')
        .runImmediately(() => this.#locked())
      if (!acquired) this.#report.refused = 'another Pingvin import is running'
      return this.#report
    } finally {
      await this.#source.close()
    }
  }

  async #locked() {
    const sourceId = this.#report.sourceId
    const ledgerRows = await db
      .from(LEDGER)
      .where('source_id', sourceId)
      .select('source_table', 'source_key', 'target_key', 'state')
    for (const row of ledgerRows) {
      this.#ledger.set(`${row.source_table}:${row.source_key}`, {
        state: row.state,
        targetKey: row.target_key,
      })
    }

    const foreign = await this.#foreignData()
    if (foreign && !this.#options.merge) {
      this.#report.refused = `Tern already holds data (${foreign}); use --merge to import beside it`
      return
    }

    const diskName = this.#options.disk ?? (await storage.resolveDefault())
    if (!storage.has(diskName)) {
      this.#report.refused = `no storage disk named "${diskName}" (known: ${storage.names().join(', ')})`
      return
    }
    this.#report.disk = diskName
    this.#log(`files go to the storage disk "${diskName}"`)

    await this.#importConfig()
    await this.#importUsers()
    await this.#finishSetup()
    await this.#importReverseShares()
    await this.#importShares(diskName)
    await this.#reportOrphanFolders()
  }

  /** What non-imported data Tern holds (users, shares, reverse shares not in this source's ledger), or null. */
  async #foreignData(): Promise<string | null> {
    const found: string[] = []
    for (const table of ['users', 'shares', 'reverse_shares']) {
      const [row] = await db
        .from(table)
        .whereNotIn(
          'id',
          db
            .from(LEDGER)
            .where('source_id', this.#report.sourceId)
            .where('target_table', table)
            .select('target_key')
        )
        .count('* as total')
      const total = Number(row.total)
      if (total > 0) found.push(`${total} ${table.replace('_', ' ')}`)
    }
    return found.length ? found.join(', ') : null
  }

  /** Pingvin's settings, through the configuration mapping (never overwrites a Tern value). */
  async #importConfig() {
    if (!this.#source.hasTable('Config')) return
    const rows = this.#source.rows('Config', 'category') as PingvinConfigRow[]
    const result = await importPingvinConfig(rows, { dryRun: this.#options.dryRun })
    this.#report.config = {
      imported: result.imported.length,
      unchanged: result.unchanged.length,
      skipped: result.skipped.map((skip) => ({
        key: skip.key,
        reason: `${skip.kind}: ${skip.reason}`,
      })),
      warnings: result.imported.flatMap((entry) =>
        entry.warning ? [{ key: entry.key, warning: entry.warning }] : []
      ),
    }
  }

  /** An imported admin means the instance is set up: the first-run setup page must not offer itself. */
  async #finishSetup() {
    if (this.#options.dryRun || this.#report.tables.User.imported === 0) return
    const admin = await db
      .from('users')
      .whereIn('id', [...this.#users])
      .where('is_admin', true)
      .first()
    if (!admin) return
    const config = await app.container.make(ConfigService)
    await config.set('internal.setupFinished', true)
  }

  // ---------------------------------------------------------------- users

  async #importUsers() {
    const counts = this.#report.tables.User
    const oauthByUser = new Map<string, PingvinRow[]>()
    for (const row of this.#source.rows('OAuthUser', 'id')) {
      this.#report.tables.OAuthUser.read++
      const userId = typeof row.userId === 'string' ? row.userId : ''
      oauthByUser.set(userId, [...(oauthByUser.get(userId) ?? []), row])
    }
    const userIds = new Set<string>()
    for (const row of this.#source.rows('User')) {
      counts.read++
      const rowKey = describeKey(row)
      const links = oauthByUser.get(String(row.id)) ?? []
      if (typeof row.id === 'string') userIds.add(row.id)
      if (this.#ledger.has(`User:${row.id}`)) {
        counts.alreadyImported++
        this.#users.add(String(row.id))
        await this.#importSocialAccounts(row, links, null)
        continue
      }
      try {
        const user = await this.#userValues(row)
        if (!this.#options.dryRun) {
          await db.transaction(async (trx) => {
            await trx.table('users').insert(user)
            await this.#record(trx, 'User', user.id, 'users', user.id, 'done')
            await this.#importSocialAccounts(row, links, trx)
          })
        } else {
          this.#users.add(user.id)
          await this.#importSocialAccounts(row, links, null)
        }
        this.#users.add(user.id)
        counts.imported++
      } catch (error) {
        this.#skip('User', rowKey, error)
        for (const link of links)
          this.#skip(
            'OAuthUser',
            describeKey(link),
            new RowSkipped(`parent User ${rowKey} not imported`)
          )
      }
    }
    for (const [userId, links] of oauthByUser) {
      if (userIds.has(userId)) continue
      for (const link of links)
        this.#skip(
          'OAuthUser',
          describeKey(link),
          new RowSkipped(`user ${userId || '(none)'} does not exist in the source`)
        )
    }
  }

  async #userValues(row: PingvinRow) {
    const id = key(row.id, 'id')
    const username = parseText(row.username, 'username', 32)
    const email = parseText(row.email, 'email', 255)
    const password = parseOptionalText(row.password, 'password', 255)
    const createdAt = parseTimestamp(row.createdAt, 'createdAt')
    const updatedAt =
      row.updatedAt === undefined ? createdAt : parseTimestamp(row.updatedAt, 'updatedAt')
    const isAdmin = parseBoolean(row.isAdmin, 'isAdmin', false)
    let totpSecret = parseOptionalText(row.totpSecret, 'totpSecret', 255)
    let totpVerified = parseBoolean(row.totpVerified, 'totpVerified', false)
    if (totpVerified && !totpSecret) {
      this.#line(
        'warning',
        'User',
        id,
        'TOTP marked verified without a secret: imported with TOTP off'
      )
      totpVerified = false
    }
    if (totpSecret && !/^[A-Z2-7]+=*$/i.test(totpSecret)) {
      this.#line('warning', 'User', id, 'TOTP secret is not Base32: imported with TOTP off')
      totpSecret = null
      totpVerified = false
    }
    if (await db.from('users').where('id', id).first())
      throw new RowSkipped('collision: users.id is taken', 'collision')
    const nameRow = await db
      .from('users')
      .whereRaw('lower(username) = ?', [username.toLowerCase()])
      .select('id')
      .first()
    const byName = nameRow?.id ?? this.#taken.get(`username:${username.toLowerCase()}`)
    if (byName)
      throw new RowSkipped(
        `collision: username "${username}" is taken by user ${byName}`,
        'collision'
      )
    const emailRow = await db
      .from('users')
      .whereRaw('lower(email) = ?', [email.toLowerCase()])
      .select('id')
      .first()
    const byEmail = emailRow?.id ?? this.#taken.get(`email:${email.toLowerCase()}`)
    if (byEmail)
      throw new RowSkipped(`collision: e-mail "${email}" is taken by user ${byEmail}`, 'collision')
    this.#taken.set(`username:${username.toLowerCase()}`, id)
    this.#taken.set(`email:${email.toLowerCase()}`, id)
    return {
      id,
      username,
      email,
      password,
      is_admin: isAdmin,
      totp_secret: totpSecret,
      totp_verified: totpSecret ? totpVerified : false,
      created_at: sqlDateTime(createdAt),
      updated_at: sqlDateTime(updatedAt),
    }
  }

  /** The user's OAuthUser rows and LDAP link; `trx` null = the user's transaction is over (or a dry run). */
  async #importSocialAccounts(
    user: PingvinRow,
    links: PingvinRow[],
    trx: TransactionClientContract | null
  ) {
    const counts = this.#report.tables.OAuthUser
    const userId = String(user.id)
    const createdAt = sqlDateTime(parseTimestamp(user.createdAt, 'createdAt'))
    const providers = new Set<string>()
    const accounts: {
      ledgerTable: string
      ledgerKey: string
      values: Record<string, unknown>
      counted: boolean
    }[] = []
    for (const link of links) {
      accounts.push({
        ledgerTable: 'OAuthUser',
        ledgerKey: String(link.id),
        counted: true,
        values: {
          id: link.id,
          user_id: userId,
          provider: link.provider,
          provider_user_id: link.providerUserId,
          provider_username: link.providerUsername,
        },
      })
    }
    if (typeof user.ldapDN === 'string' && user.ldapDN) {
      accounts.push({
        ledgerTable: 'ldapDN',
        ledgerKey: userId,
        counted: false,
        values: {
          id: uuidV5(user.ldapDN),
          user_id: userId,
          provider: 'ldap',
          provider_user_id: user.ldapDN,
          provider_username: user.username,
        },
      })
    }
    for (const account of accounts) {
      const rowKey = account.ledgerKey
      if (this.#ledger.has(`${account.ledgerTable}:${rowKey}`)) {
        if (account.counted) counts.alreadyImported++
        providers.add(String(account.values.provider))
        continue
      }
      try {
        const values = account.values
        const id = key(values.id, 'id')
        const provider = parseText(values.provider, 'provider', 64)
        const providerUserId = parseText(values.provider_user_id, 'providerUserId', 255)
        const providerUsername =
          parseOptionalText(values.provider_username, 'providerUsername', 255) ?? ''
        if (!this.#users.has(userId) && !trx)
          throw new RowSkipped(`parent User ${userId} not imported`)
        if (providers.has(provider))
          throw new RowSkipped(
            `a second ${provider} account of user ${userId}: Tern links one per provider`
          )
        const client = trx ?? db
        if (await client.from('social_accounts').where('id', id).first())
          throw new RowSkipped('collision: social_accounts.id is taken', 'collision')
        const owner = await client
          .from('social_accounts')
          .where({ provider, provider_user_id: providerUserId })
          .select('user_id')
          .first()
        if (owner)
          throw new RowSkipped(
            `collision: this ${provider} account is linked to user ${owner.user_id}`,
            'collision'
          )
        if (await client.from('social_accounts').where({ provider, user_id: userId }).first()) {
          throw new RowSkipped(
            `collision: user ${userId} already has a ${provider} account`,
            'collision'
          )
        }
        if (!['github', 'google', 'microsoft', 'discord', 'oidc', 'ldap'].includes(provider)) {
          this.#line(
            'warning',
            account.ledgerTable,
            rowKey,
            `unknown provider "${provider}": imported, but nobody can sign in through it`
          )
        }
        providers.add(provider)
        if (!this.#options.dryRun) {
          const write = async (writer: TransactionClientContract) => {
            await writer.table('social_accounts').insert({
              id,
              user_id: userId,
              provider,
              provider_user_id: providerUserId,
              provider_username: providerUsername,
              created_at: createdAt,
              updated_at: createdAt,
            })
            await this.#record(writer, account.ledgerTable, rowKey, 'social_accounts', id, 'done')
          }
          if (trx) await write(trx)
          else await db.transaction(write)
        }
        if (account.counted) counts.imported++
      } catch (error) {
        if (account.counted) this.#skip('OAuthUser', rowKey, error)
        else if (error instanceof RowSkipped || error instanceof PingvinValueError) {
          this.#line(
            error instanceof RowSkipped ? error.level : 'skipped',
            'User',
            userId,
            `LDAP link not imported: ${error.message}`
          )
        } else throw error
      }
    }
  }

  // ------------------------------------------------------- reverse shares

  async #importReverseShares() {
    const counts = this.#report.tables.ReverseShare
    for (const row of this.#source.rows('ReverseShare')) {
      counts.read++
      const rowKey = describeKey(row)
      if (this.#ledger.has(`ReverseShare:${row.id}`)) {
        counts.alreadyImported++
        this.#reverseShares.add(String(row.id))
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
        if (!this.#users.has(creatorId))
          throw new RowSkipped(`parent User ${creatorId} not imported`)
        if (await db.from('reverse_shares').where('id', id).first())
          throw new RowSkipped('collision: reverse_shares.id is taken', 'collision')
        if (await db.from('reverse_shares').where('token', token).first())
          throw new RowSkipped('collision: the token is taken', 'collision')
        if (!this.#options.dryRun) {
          await db.transaction(async (trx) => {
            await trx.table('reverse_shares').insert(values)
            await this.#record(trx, 'ReverseShare', id, 'reverse_shares', id, 'done')
          })
        }
        this.#reverseShares.add(id)
        counts.imported++
      } catch (error) {
        this.#skip('ReverseShare', rowKey, error)
      }
    }
  }

  // --------------------------------------------------------------- shares

  async #importShares(diskName: string) {
    const counts = this.#report.tables
    const byShare = (table: string) => {
      const map = new Map<string, PingvinRow[]>()
      for (const row of this.#source.rows(table)) {
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
      this.#skip(
        'ShareSecurity',
        describeKey(orphan),
        new RowSkipped('belongs to no share', 'info')
      )
    }
    securities.delete('')
    const shareIds = new Set<string>()
    for (const row of this.#source.rows('Share')) {
      counts.Share.read++
      const rowKey = describeKey(row)
      if (typeof row.id === 'string') shareIds.add(row.id)
      const children = {
        files: files.get(String(row.id)) ?? [],
        securities: securities.get(String(row.id)) ?? [],
        recipients: recipients.get(String(row.id)) ?? [],
      }
      try {
        await this.#importShare(row, children, diskName)
      } catch (error) {
        this.#skip('Share', rowKey, error)
        const reason = new RowSkipped(`parent Share ${rowKey} not imported`)
        for (const file of children.files) this.#skip('File', describeKey(file), reason)
        for (const security of children.securities)
          this.#skip('ShareSecurity', describeKey(security), reason)
        for (const recipient of children.recipients)
          this.#skip('ShareRecipient', describeKey(recipient), reason)
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
          this.#skip(
            table,
            describeKey(row),
            new RowSkipped(`share ${shareId || '(none)'} does not exist in the source`)
          )
      }
    }
  }

  async #importShare(
    row: PingvinRow,
    children: { files: PingvinRow[]; securities: PingvinRow[]; recipients: PingvinRow[] },
    diskName: string
  ) {
    const counts = this.#report.tables
    const ledgerEntry = this.#ledger.get(`Share:${row.id}`)
    if (ledgerEntry?.state === 'done') {
      counts.Share.alreadyImported++
      counts.File.alreadyImported += children.files.filter((file) =>
        this.#ledger.has(`File:${file.id}`)
      ).length
      counts.ShareSecurity.alreadyImported += children.securities.filter((s) =>
        this.#ledger.has(`ShareSecurity:${s.id}`)
      ).length
      counts.ShareRecipient.alreadyImported += children.recipients.filter((r) =>
        this.#ledger.has(`ShareRecipient:${r.id}`)
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
      if (stillThere && !this.#options.dryRun) {
        await this.#resumeShare(id, children.files, diskName)
        return
      }
      if (!this.#options.dryRun) await this.#forgetUnit(id, children)
    }

    // Parse and check everything before writing anything.
    const createdAt = parseTimestamp(row.createdAt, 'createdAt')
    const expiration = parseExpiration(row.expiration, 'expiration')
    if (!parseBoolean(row.uploadLocked, 'uploadLocked', true))
      throw new RowSkipped('unfinished upload (Pingvin never showed it)')
    if (expiration && expiration <= DateTime.utc()) throw new RowSkipped('expired')
    const storageProvider =
      row.storageProvider === undefined ? 'LOCAL' : String(row.storageProvider)
    if (storageProvider !== 'LOCAL') {
      throw new RowSkipped(
        `its files are in Pingvin's ${storageProvider} bucket, not in uploads/: importing them is not supported`
      )
    }
    const creatorId =
      row.creatorId === null || row.creatorId === undefined ? null : key(row.creatorId, 'creatorId')
    if (creatorId && !this.#users.has(creatorId))
      throw new RowSkipped(`parent User ${creatorId} not imported`)
    const reverseShareId =
      row.reverseShareId === null || row.reverseShareId === undefined
        ? null
        : key(row.reverseShareId, 'reverseShareId')
    if (reverseShareId && !this.#reverseShares.has(reverseShareId)) {
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
        this.#skip('ShareRecipient', describeKey(candidate), error)
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
        const source = join(this.#options.paths.uploads, 'shares', id, fileId)
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
        this.#skip('File', describeKey(candidate), error)
      }
    }
    if (units.length === 0) throw new RowSkipped('no file of the share can be imported')

    if (this.#options.dryRun) {
      counts.Share.imported++
      counts.File.imported += units.length
      counts.ShareSecurity.imported += security ? 1 : 0
      counts.ShareRecipient.imported += recipientRows.length
      return
    }

    // Step 1: rows, incomplete, with their ledger rows pending.
    await db.transaction(async (trx) => {
      await trx.table('shares').insert(share)
      await this.#record(trx, 'Share', id, 'shares', id, 'pending')
      if (security) {
        await trx.table('share_securities').insert(security)
        await this.#record(
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
        await this.#record(
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
        await this.#record(trx, 'File', unit.id, 'files', unit.id, 'pending')
      }
    })
    // Steps 2 and 3.
    const copied = await this.#copyFiles(id, units, diskName)
    await this.#completeShare(id, share.created_at, units, copied)
    if (copied.size > 0) {
      counts.Share.imported++
      counts.ShareSecurity.imported += security ? 1 : 0
      counts.ShareRecipient.imported += recipientRows.length
    }
  }

  /** Step 2: each file's bytes to the disk; the byte counts of the files copied (by id). */
  async #copyFiles(
    shareId: string,
    units: FileUnit[],
    diskName: string
  ): Promise<Map<string, number>> {
    const disk = storage.use(diskName)
    const copied = new Map<string, number>()
    for (const unit of units) {
      const storageKey = storageKeyFor(shareId, unit.id)
      try {
        let bytes = 0
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length
            done(null, chunk)
          },
        })
        const reading = pipeline(createReadStream(unit.source), counter)
        await Promise.all([reading, disk.putStream(storageKey, counter)])
        await disk.sync(storageKey)
        copied.set(unit.id, bytes)
        this.#report.tables.File.imported++
        if (bytes !== unit.declaredSize) {
          this.#line(
            'warning',
            'File',
            unit.id,
            `size ${unit.declaredSize} in Pingvin's row, ${bytes} bytes copied: the copied size is kept`
          )
        }
      } catch (error) {
        this.#report.tables.File.skipped++
        this.#line(
          'skipped',
          'File',
          unit.id,
          `could not copy ${unit.source}: ${(error as Error).message}`
        )
      }
    }
    return copied
  }

  /** Step 3: files and share complete, ledger done; files not copied (and a share left empty) removed. */
  async #completeShare(
    shareId: string,
    createdAt: string,
    units: FileUnit[],
    copied: Map<string, number>
  ) {
    const sourceId = this.#report.sourceId
    await db.transaction(async (trx) => {
      const failed = units.filter((unit) => !copied.has(unit.id)).map((unit) => unit.id)
      if (copied.size === 0) {
        const keys = [
          shareId,
          ...units.map((unit) => unit.id),
          ...(await this.#pendingChildKeys(trx, shareId)),
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
        this.#line('skipped', 'Share', shareId, 'none of its files could be copied')
        this.#report.tables.Share.skipped++
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
      const keys = [shareId, ...copied.keys(), ...(await this.#pendingChildKeys(trx, shareId))]
      await trx
        .from(LEDGER)
        .where('source_id', sourceId)
        .where('state', 'pending')
        .whereIn('source_key', keys)
        .update({ state: 'done' })
    })
  }

  /** Ledger keys of the security and recipient rows of a share. */
  async #pendingChildKeys(trx: TransactionClientContract, shareId: string): Promise<string[]> {
    const security = await trx.from('share_securities').where('share_id', shareId).select('id')
    const recipients = await trx.from('share_recipients').where('share_id', shareId).select('id')
    return [...security, ...recipients].map((row) => String(row.id))
  }

  /** A share left pending by a run that died: copy its files again and complete it. */
  async #resumeShare(shareId: string, fileRows: PingvinRow[], diskName: string) {
    this.#line('info', 'Share', shareId, 'finishing an import a previous run left unfinished')
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
      source: join(this.#options.paths.uploads, 'shares', shareId, String(file.id)),
    }))
    const share = await db.from('shares').where('id', shareId).select('created_at').firstOrFail()
    const createdAt =
      share.created_at instanceof Date
        ? sqlDateTime(DateTime.fromJSDate(share.created_at))
        : String(share.created_at)
    const copied = await this.#copyFiles(shareId, units, diskName)
    await this.#completeShare(shareId, createdAt, units, copied)
    if (copied.size > 0) this.#report.tables.Share.imported++
  }

  /** Forgets the ledger rows of a pending share that no longer exists in Tern, so it is imported afresh. */
  async #forgetUnit(
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
      .where('source_id', this.#report.sourceId)
      .where('state', 'pending')
      .whereIn('source_key', keys)
      .delete()
    for (const k of keys) {
      for (const table of ['Share', 'File', 'ShareSecurity', 'ShareRecipient'])
        this.#ledger.delete(`${table}:${k}`)
    }
  }

  async #record(
    trx: TransactionClientContract,
    sourceTable: string,
    sourceKey: string,
    targetTable: string,
    targetKey: string,
    state: 'pending' | 'done'
  ) {
    await trx.table(LEDGER).insert({
      source_id: this.#report.sourceId,
      source_table: sourceTable,
      source_key: sourceKey,
      target_table: targetTable,
      target_key: targetKey,
      state,
      imported_at: sqlDateTime(),
    })
  }

  /** Folders under uploads/shares with no Share row: listed (never touched). */
  async #reportOrphanFolders() {
    const root = join(this.#options.paths.uploads, 'shares')
    const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
    const known = new Set(this.#source.rows('Share').map((row) => String(row.id)))
    for (const entry of entries) {
      if (entry.isDirectory() && !known.has(entry.name)) {
        this.#line(
          'info',
          'uploads',
          entry.name,
          'folder without a share in the database: not imported'
        )
      }
    }
  }
}

export { PingvinSourceError }
