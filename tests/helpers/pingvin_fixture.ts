/**
 * A Pingvin Share data folder for the importer tests: `pingvin-share.db`
 * built with better-sqlite3 from Pingvin's final schema (1.13: the column
 * list of docs/design/pingvin_import.md §1, written from the Prisma models,
 * not copied from Pingvin's migrations) or an older one (`schema: '0.x'`:
 * no `name`, `simplified`, `publicAccess`, `ldapDN`, `storageProvider`, no
 * `OAuthUser` table, still `isZipReady`), and `uploads/shares/<shareId>/<fileId>`.
 * Timestamps are stored the way Prisma stores them (integer milliseconds),
 * with a few TEXT `YYYY-MM-DD HH:MM:SS` values like Pingvin's raw-SQL
 * migrations left. Password hashes come from the `argon2` package, as Pingvin
 * made them.
 *
 * ```ts
 * const pingvin = await buildPingvinFixture()
 * // pingvin.dir, pingvin.ids.*, pingvin.bytes[fileId]
 * pingvin.insert('Share', { id: 'x', ... })   // more rows
 * await pingvin.remove()
 * ```
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import argon2 from 'argon2'

interface SqliteDb {
  exec(sql: string): void
  prepare(sql: string): { run(...params: unknown[]): unknown }
  close(): void
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDb

const SCHEMA_1_13 = `
CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0);
CREATE TABLE "User" ("id" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" DATETIME NOT NULL, "username" TEXT NOT NULL, "email" TEXT NOT NULL, "password" TEXT,
  "isAdmin" BOOLEAN NOT NULL DEFAULT false, "ldapDN" TEXT, "totpEnabled" BOOLEAN NOT NULL DEFAULT false,
  "totpVerified" BOOLEAN NOT NULL DEFAULT false, "totpSecret" TEXT);
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_ldapDN_key" ON "User"("ldapDN");
CREATE TABLE "RefreshToken" ("id" TEXT NOT NULL PRIMARY KEY, "token" TEXT NOT NULL, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" DATETIME NOT NULL, "userId" TEXT NOT NULL, "oauthIDToken" TEXT,
  FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE);
CREATE TABLE "LoginToken" ("token" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" DATETIME NOT NULL, "userId" TEXT NOT NULL, "used" BOOLEAN NOT NULL DEFAULT false);
CREATE TABLE "ResetPasswordToken" ("token" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" DATETIME NOT NULL, "userId" TEXT NOT NULL);
CREATE TABLE "OAuthUser" ("id" TEXT NOT NULL PRIMARY KEY, "provider" TEXT NOT NULL, "providerUserId" TEXT NOT NULL,
  "providerUsername" TEXT NOT NULL, "userId" TEXT NOT NULL, FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE);
CREATE TABLE "ReverseShare" ("id" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "token" TEXT NOT NULL, "shareExpiration" DATETIME NOT NULL, "maxShareSize" TEXT NOT NULL,
  "sendEmailNotification" BOOLEAN NOT NULL, "remainingUses" INTEGER NOT NULL, "simplified" BOOLEAN NOT NULL DEFAULT false,
  "publicAccess" BOOLEAN NOT NULL DEFAULT true, "creatorId" TEXT NOT NULL,
  FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE CASCADE);
CREATE UNIQUE INDEX "ReverseShare_token_key" ON "ReverseShare"("token");
CREATE TABLE "Share" ("id" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "name" TEXT,
  "uploadLocked" BOOLEAN NOT NULL DEFAULT false, "views" INTEGER NOT NULL DEFAULT 0, "expiration" DATETIME NOT NULL,
  "description" TEXT, "removedReason" TEXT, "creatorId" TEXT, "reverseShareId" TEXT, "storageProvider" TEXT NOT NULL DEFAULT 'LOCAL',
  FOREIGN KEY ("creatorId") REFERENCES "User" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("reverseShareId") REFERENCES "ReverseShare" ("id") ON DELETE CASCADE);
CREATE TABLE "ShareRecipient" ("id" TEXT NOT NULL PRIMARY KEY, "email" TEXT NOT NULL, "shareId" TEXT NOT NULL,
  FOREIGN KEY ("shareId") REFERENCES "Share" ("id") ON DELETE CASCADE);
CREATE TABLE "File" ("id" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "name" TEXT NOT NULL,
  "size" TEXT NOT NULL, "shareId" TEXT NOT NULL, FOREIGN KEY ("shareId") REFERENCES "Share" ("id") ON DELETE CASCADE);
CREATE TABLE "ShareSecurity" ("id" TEXT NOT NULL PRIMARY KEY, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "password" TEXT, "maxViews" INTEGER, "shareId" TEXT, FOREIGN KEY ("shareId") REFERENCES "Share" ("id") ON DELETE CASCADE);
CREATE UNIQUE INDEX "ShareSecurity_shareId_key" ON "ShareSecurity"("shareId");
CREATE TABLE "Config" ("updatedAt" DATETIME NOT NULL, "name" TEXT NOT NULL, "category" TEXT NOT NULL, "type" TEXT NOT NULL,
  "defaultValue" TEXT NOT NULL DEFAULT '', "value" TEXT, "obscured" BOOLEAN NOT NULL DEFAULT false,
  "secret" BOOLEAN NOT NULL DEFAULT true, "locked" BOOLEAN NOT NULL DEFAULT false, "order" INTEGER NOT NULL,
  PRIMARY KEY ("name", "category"));
`

/** The older shape (before names, LDAP, OAuth, S3 and the reverse share flags). */
function schema0x(): string {
  return SCHEMA_1_13.replace(', "name" TEXT,', ',')
    .replace(`, "storageProvider" TEXT NOT NULL DEFAULT 'LOCAL'`, '')
    .replace(
      `"uploadLocked" BOOLEAN NOT NULL DEFAULT false,`,
      `"uploadLocked" BOOLEAN NOT NULL DEFAULT false, "isZipReady" BOOLEAN NOT NULL DEFAULT false,`
    )
    .replace(
      ` "simplified" BOOLEAN NOT NULL DEFAULT false,\n  "publicAccess" BOOLEAN NOT NULL DEFAULT true,`,
      ''
    )
    .replace(` "ldapDN" TEXT,`, '')
    .replace(`CREATE UNIQUE INDEX "User_ldapDN_key" ON "User"("ldapDN");\n`, '')
    .replace(/CREATE TABLE "OAuthUser"[^;]*;\n/, '')
}

/** Base32 (RFC 4648, no padding) of `bytes`. */
export function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** sha256 (hex) of every file under `dir`, by relative path. */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out[relative(dir, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return out
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

const DAY = 86_400_000

/** Ids, secrets and file contents of the standard data set. */
export interface PingvinFixture {
  dir: string
  dbPath: string
  uploads: string
  schema: '1.13' | '0.x'
  ids: {
    admin: string
    alice: string
    bob: string
    oauthOnly: string
    /** Alice's username in capitals: a collision in Tern. */
    aliceByCase: string
    ldapUser: string
    reverseShare: string
    usedReverseShare: string
  }
  passwords: { admin: string; alice: string; share: string }
  totpSecret: string
  reverseShareToken: string
  /** Share ids by role. */
  shares: {
    never: string
    protected: string
    anonymous: string
    viaReverseShare: string
    partial: string
    expired: string
    unfinished: string
    s3: string
    allMissing: string
    corrupt: string
  }
  /** File ids by role, and the bytes of each file written to uploads/. */
  files: {
    big: string
    text: string
    protectedFile: string
    anonymousFile: string
    viaReverseShare: string
    present: string
    missing: string
    mismatched: string
  }
  bytes: Record<string, Buffer>
  /** Inserts a row into the Pingvin database (columns as given). */
  insert(table: string, row: Record<string, unknown>): void
  /** Writes a file into uploads/shares/<shareId>/<name>. */
  writeUpload(shareId: string, name: string, bytes: Buffer): Promise<void>
  remove(): Promise<void>
}

/** Builds the standard Pingvin data folder (see the file comment). */
export async function buildPingvinFixture(
  options: { schema?: '1.13' | '0.x' } = {}
): Promise<PingvinFixture> {
  const schema = options.schema ?? '1.13'
  const dir = await mkdtemp(join(tmpdir(), 'pingvin-fixture-'))
  const dbPath = join(dir, 'pingvin-share.db')
  const uploads = join(dir, 'uploads')
  const db = new Database(dbPath)
  db.exec(schema === '1.13' ? SCHEMA_1_13 : schema0x())
  const modern = schema === '1.13'

  const insert = (table: string, row: Record<string, unknown>) => {
    const columns = Object.keys(row)
    const values = columns.map((column) => {
      const value = row[column]
      return typeof value === 'boolean' ? (value ? 1 : 0) : value
    })
    db.prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
    ).run(...values)
  }
  const writeUpload = async (shareId: string, name: string, bytes: Buffer) => {
    await mkdir(join(uploads, 'shares', shareId), { recursive: true })
    await writeFile(join(uploads, 'shares', shareId, name), bytes)
  }

  const now = Date.now()
  for (const [index, name] of [
    '20221011172612_init',
    '20241218145829_add_s3_support',
    '20250108150730_remove_is_zip_ready',
  ].entries()) {
    insert('_prisma_migrations', {
      id: randomUUID(),
      checksum: 'x',
      finished_at: now,
      migration_name: name,
      started_at: now,
      applied_steps_count: index + 1,
    })
  }

  const ids = {
    admin: randomUUID(),
    alice: randomUUID(),
    bob: randomUUID(),
    oauthOnly: randomUUID(),
    aliceByCase: randomUUID(),
    ldapUser: randomUUID(),
    reverseShare: randomUUID(),
    usedReverseShare: randomUUID(),
  }
  const passwords = { admin: 'pingvin-admin-pw', alice: 'alice-secret-1', share: 'share-password' }
  const totpSecret = base32(randomBytes(10))
  const reverseShareToken = randomUUID()
  const tag = randomBytes(3).toString('hex')

  // Users. Alice's hash uses small m/t: the parameters must be read from the hash.
  const adminHash = await argon2.hash(passwords.admin, { type: argon2.argon2id })
  const aliceHash = await argon2.hash(passwords.alice, {
    type: argon2.argon2id,
    memoryCost: 4096,
    timeCost: 2,
  })
  const user = (id: string, username: string, extra: Record<string, unknown>) =>
    insert('User', {
      id,
      createdAt: now - 30 * DAY,
      updatedAt: now - 20 * DAY,
      username,
      email: `${username}@example.com`,
      ...extra,
    })
  user(ids.admin, `admin${tag}`, { password: adminHash, isAdmin: true })
  user(ids.alice, `alice${tag}`, {
    password: aliceHash,
    totpEnabled: true,
    totpVerified: true,
    totpSecret,
  })
  user(ids.bob, `bob${tag}`, {
    password: await argon2.hash('bob-pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 2 }),
    totpEnabled: true,
    totpVerified: false,
    totpSecret: base32(randomBytes(10)),
    // a TEXT timestamp, as Pingvin's raw-SQL migrations wrote them
    createdAt: '2023-02-09 10:13:45',
  })
  user(ids.oauthOnly, `oauth${tag}`, { password: null })
  // Unique in Pingvin's SQLite (case-sensitive), the same name as Alice's for Tern (and MySQL).
  user(ids.aliceByCase, `ALICE${tag}`, { password: null, email: `alice-upper${tag}@example.com` })
  user(ids.ldapUser, `ldap${tag}`, {
    password: await argon2.hash(randomUUID(), {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 2,
    }),
    ...(modern ? { ldapDN: `uid=ldap${tag},ou=people,dc=example,dc=org` } : {}),
  })
  if (modern) {
    insert('OAuthUser', {
      id: randomUUID(),
      provider: 'github',
      providerUserId: `gh-${tag}`,
      providerUsername: 'octo',
      userId: ids.oauthOnly,
    })
    insert('OAuthUser', {
      id: randomUUID(),
      provider: 'github',
      providerUserId: `gh2-${tag}`,
      providerUsername: 'octo2',
      userId: ids.oauthOnly,
    })
  }
  insert('RefreshToken', {
    id: randomUUID(),
    token: randomUUID(),
    createdAt: now,
    expiresAt: now + DAY,
    userId: ids.alice,
  })

  // Reverse shares: one never expiring, simplified and private; one used up.
  insert('ReverseShare', {
    id: ids.reverseShare,
    createdAt: now - DAY,
    token: reverseShareToken,
    shareExpiration: 0,
    maxShareSize: '1000000000',
    sendEmailNotification: false,
    remainingUses: 3,
    ...(modern ? { simplified: true, publicAccess: false } : {}),
    creatorId: ids.alice,
  })
  insert('ReverseShare', {
    id: ids.usedReverseShare,
    createdAt: now - DAY,
    token: randomUUID(),
    shareExpiration: now + 10 * DAY,
    maxShareSize: '5000',
    sendEmailNotification: true,
    remainingUses: 0,
    creatorId: ids.admin,
  })

  const shares = {
    never: `never-${tag}`,
    protected: `prot-${tag}`,
    anonymous: `anon-${tag}`,
    viaReverseShare: `rev-${tag}`,
    partial: `part-${tag}`,
    expired: `expd-${tag}`,
    unfinished: `unfn-${tag}`,
    s3: `s3sh-${tag}`,
    allMissing: `miss-${tag}`,
    corrupt: `bad-${tag}`,
  }
  const files = {
    big: randomUUID(),
    text: randomUUID(),
    protectedFile: randomUUID(),
    anonymousFile: randomUUID(),
    viaReverseShare: randomUUID(),
    present: randomUUID(),
    missing: randomUUID(),
    mismatched: randomUUID(),
  }
  const bytes: Record<string, Buffer> = {
    [files.big]: randomBytes(300_000),
    [files.text]: Buffer.from('hello from pingvin\n'),
    [files.protectedFile]: Buffer.from('secret contents'),
    [files.anonymousFile]: randomBytes(1234),
    [files.viaReverseShare]: Buffer.from('uploaded through a reverse share'),
    [files.present]: Buffer.from('this one exists'),
    [files.mismatched]: Buffer.from('twelve bytes'),
  }
  const share = (id: string, extra: Record<string, unknown>) =>
    insert('Share', {
      id,
      createdAt: now - 2 * DAY,
      uploadLocked: true,
      views: 0,
      expiration: 0,
      ...extra,
    })
  const file = async (id: string, shareId: string, name: string, size?: string) => {
    insert('File', {
      id,
      createdAt: now - 2 * DAY,
      name,
      size: size ?? String(bytes[id]?.length ?? 10),
      shareId,
    })
    if (bytes[id]) await writeUpload(shareId, id, bytes[id])
  }

  share(shares.never, {
    creatorId: ids.alice,
    views: 7,
    description: 'never expires',
    ...(modern ? { name: 'Holiday' } : {}),
  })
  await file(files.big, shares.never, 'photo.bin')
  await file(files.text, shares.never, 'notes.txt')
  await writeUpload(shares.never, 'archive.zip', Buffer.from('PK zip'))
  await writeUpload(shares.never, `${randomUUID()}.tmp-chunk`, Buffer.from('half'))

  share(shares.protected, {
    creatorId: ids.admin,
    expiration: now + 7 * DAY,
    createdAt: '2024-05-01 12:00:00',
  })
  await file(files.protectedFile, shares.protected, 'secret.txt')
  insert('ShareSecurity', {
    id: randomUUID(),
    createdAt: now,
    password: await argon2.hash(passwords.share, { type: argon2.argon2id }),
    maxViews: 5,
    shareId: shares.protected,
  })
  insert('ShareRecipient', {
    id: randomUUID(),
    email: 'one@example.com',
    shareId: shares.protected,
  })
  insert('ShareRecipient', {
    id: randomUUID(),
    email: 'two@example.com',
    shareId: shares.protected,
  })
  insert('ShareSecurity', {
    id: randomUUID(),
    createdAt: now,
    password: null,
    maxViews: 2,
    shareId: null,
  })

  share(shares.anonymous, { creatorId: null, expiration: now + 3 * DAY })
  await file(files.anonymousFile, shares.anonymous, 'data.bin')

  share(shares.viaReverseShare, { creatorId: null, reverseShareId: ids.reverseShare })
  await file(files.viaReverseShare, shares.viaReverseShare, 'upload.txt')

  share(shares.partial, { creatorId: ids.bob })
  await file(files.present, shares.partial, 'present.txt')
  await file(files.missing, shares.partial, 'missing.txt', '99')
  await file(files.mismatched, shares.partial, 'mismatch.txt', '999')

  share(shares.expired, { creatorId: ids.bob, expiration: now - DAY })
  await file(randomUUID(), shares.expired, 'old.txt')
  share(shares.unfinished, { creatorId: ids.bob, uploadLocked: false })
  if (modern) {
    share(shares.s3, { creatorId: ids.bob, storageProvider: 'S3' })
    await file(randomUUID(), shares.s3, 'in-bucket.txt')
  }
  share(shares.allMissing, { creatorId: ids.bob })
  await file(randomUUID(), shares.allMissing, 'gone.txt')
  share(shares.corrupt, { creatorId: ids.bob, expiration: 'next tuesday' })
  await file(randomUUID(), shares.corrupt, 'x.txt')

  await writeUpload(`orphan-${tag}`, randomUUID(), Buffer.from('no row'))

  // Configuration rows (mapped by the config step).
  const config = (
    category: string,
    name: string,
    type: string,
    value: string | null,
    extra: Record<string, unknown> = {}
  ) =>
    insert('Config', {
      updatedAt: now,
      name,
      category,
      type,
      defaultValue: '',
      value,
      order: 0,
      ...extra,
    })
  config('internal', 'jwtSecret', 'string', randomBytes(32).toString('base64'), { locked: true })
  config('general', 'appName', 'string', null, { defaultValue: 'Pingvin Share', secret: false })
  config('general', 'sessionDuration', 'timespan', '720 hours', {
    updatedAt: '2025-01-02 17:58:31',
  })
  config('share', 'autoOpenShareModal', 'boolean', 'true', { updatedAt: '2024-05-18 07:09:06' })
  config('smtp', 'password', 'string', 'smtp-secret', {
    obscured: true,
    updatedAt: String(Math.floor(now / 1000)),
  })

  db.close()
  return {
    dir,
    dbPath,
    uploads,
    schema,
    ids,
    passwords,
    totpSecret,
    reverseShareToken,
    shares,
    files,
    bytes,
    insert(table, row) {
      const handle = new Database(dbPath)
      try {
        const columns = Object.keys(row)
        handle
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
          )
          .run(
            ...columns.map((column) =>
              typeof row[column] === 'boolean' ? (row[column] ? 1 : 0) : row[column]
            )
          )
      } finally {
        handle.close()
      }
    },
    writeUpload,
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
