/**
 * The users of a Pingvin import (importer.ts): each User row with its
 * OAuthUser rows and LDAP link (a `social_accounts` row whose id is derived
 * from the DN), checked for collisions with Tern's users before insertion.
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { sqlDateTime } from '#services/auth/tokens'
import {
  parseBoolean,
  parseOptionalText,
  parseText,
  parseTimestamp,
  PingvinValueError,
} from '#services/pingvin_import/parsers'
import {
  describeKey,
  key,
  RowSkipped,
  uuidV5,
  type ImportRun,
} from '#services/pingvin_import/import_run'
import type { PingvinRow } from '#services/pingvin_import/source'

export async function importUsers(run: ImportRun) {
  const counts = run.report.tables.User
  const oauthByUser = new Map<string, PingvinRow[]>()
  for (const row of run.source.rows('OAuthUser', 'id')) {
    run.report.tables.OAuthUser.read++
    const userId = typeof row.userId === 'string' ? row.userId : ''
    oauthByUser.set(userId, [...(oauthByUser.get(userId) ?? []), row])
  }
  const userIds = new Set<string>()
  for (const row of run.source.rows('User')) {
    counts.read++
    const rowKey = describeKey(row)
    const links = oauthByUser.get(String(row.id)) ?? []
    if (typeof row.id === 'string') userIds.add(row.id)
    if (run.ledger.has(`User:${row.id}`)) {
      counts.alreadyImported++
      run.users.add(String(row.id))
      await importSocialAccounts(run, row, links, null)
      continue
    }
    try {
      const user = await userValues(run, row)
      if (!run.options.dryRun) {
        await db.transaction(async (trx) => {
          await trx.table('users').insert(user)
          await run.record(trx, 'User', user.id, 'users', user.id, 'done')
          await importSocialAccounts(run, row, links, trx)
        })
      } else {
        run.users.add(user.id)
        await importSocialAccounts(run, row, links, null)
      }
      run.users.add(user.id)
      counts.imported++
    } catch (error) {
      run.skip('User', rowKey, error)
      for (const link of links)
        run.skip(
          'OAuthUser',
          describeKey(link),
          new RowSkipped(`parent User ${rowKey} not imported`)
        )
    }
  }
  for (const [userId, links] of oauthByUser) {
    if (userIds.has(userId)) continue
    for (const link of links)
      run.skip(
        'OAuthUser',
        describeKey(link),
        new RowSkipped(`user ${userId || '(none)'} does not exist in the source`)
      )
  }
}

async function userValues(run: ImportRun, row: PingvinRow) {
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
    run.line('warning', 'User', id, 'TOTP marked verified without a secret: imported with TOTP off')
    totpVerified = false
  }
  if (totpSecret && !/^[A-Z2-7]+=*$/i.test(totpSecret)) {
    run.line('warning', 'User', id, 'TOTP secret is not Base32: imported with TOTP off')
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
  const byName = nameRow?.id ?? run.taken.get(`username:${username.toLowerCase()}`)
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
  const byEmail = emailRow?.id ?? run.taken.get(`email:${email.toLowerCase()}`)
  if (byEmail)
    throw new RowSkipped(`collision: e-mail "${email}" is taken by user ${byEmail}`, 'collision')
  run.taken.set(`username:${username.toLowerCase()}`, id)
  run.taken.set(`email:${email.toLowerCase()}`, id)
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
async function importSocialAccounts(
  run: ImportRun,
  user: PingvinRow,
  links: PingvinRow[],
  trx: TransactionClientContract | null
) {
  const counts = run.report.tables.OAuthUser
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
    if (run.ledger.has(`${account.ledgerTable}:${rowKey}`)) {
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
      if (!run.users.has(userId) && !trx) throw new RowSkipped(`parent User ${userId} not imported`)
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
        run.line(
          'warning',
          account.ledgerTable,
          rowKey,
          `unknown provider "${provider}": imported, but nobody can sign in through it`
        )
      }
      providers.add(provider)
      if (!run.options.dryRun) {
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
          await run.record(writer, account.ledgerTable, rowKey, 'social_accounts', id, 'done')
        }
        if (trx) await write(trx)
        else await db.transaction(write)
      }
      if (account.counted) counts.imported++
    } catch (error) {
      if (account.counted) run.skip('OAuthUser', rowKey, error)
      else if (error instanceof RowSkipped || error instanceof PingvinValueError) {
        run.line(
          error instanceof RowSkipped ? error.level : 'skipped',
          'User',
          userId,
          `LDAP link not imported: ${error.message}`
        )
      } else throw error
    }
  }
}
