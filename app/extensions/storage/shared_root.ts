/**
 * Storage roots that every instance must share. A disk
 * that keeps files on a local filesystem only works behind several instances
 * when all of them see the same directory; otherwise an upload whose chunks
 * reach different instances "succeeds" with parts on each, and downloads
 * serve wrong or cut bytes. So the root carries an identity (a random id in
 * `<root>/.tern-storage-id`) that is also recorded in the database
 * (`instance_secrets`, insert-or-ignore: the first instance wins), and an
 * instance whose root does not carry the database's id refuses to start.
 */
import { randomUUID } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { storage } from './main.js'
import { E_STORAGE_ROOT_NOT_SHARED } from './errors.js'

/** The file in a storage root that holds its identity. */
export const STORAGE_ID_FILE = '.tern-storage-id'

const TABLE = 'instance_secrets'

/** The id in the root, or null when it has none. */
function readRootId(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim() || null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Gives the root an id, atomically: when several instances race, one id wins. */
function createRootId(root: string, file: string): string {
  const candidate = randomUUID()
  const temporary = join(root, `${STORAGE_ID_FILE}.${candidate}`)
  writeFileSync(temporary, candidate + '\n')
  try {
    linkSync(temporary, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    rmSync(temporary, { force: true })
  }
  return readRootId(file)!
}

/** The id recorded in the database for `key`, or null. */
async function recordedId(key: string): Promise<string | null> {
  const row = await db.from(TABLE).where('name', key).first()
  return row ? String(row.value) : null
}

/** Records `id` for `key` unless an id is already recorded; resolves to the recorded one. */
async function recordId(key: string, id: string): Promise<string> {
  const client = db.connection()
  const now = DateTime.utc().toFormat(client.dialect.dateTimeFormat)
  await client
    .knexQuery()
    .table(TABLE)
    .insert({ name: key, value: id, created_at: now })
    .onConflict('name')
    .ignore()
  return (await recordedId(key))!
}

/** What the operator can do, appended to every refusal. */
function remedy(root: string, file: string, id: string) {
  return (
    `Every Tern instance using this database must see the same files in ${root}: mount the same ` +
    `DATA_DIR (or at least its uploads directory) on all of them, e.g. a shared volume, or store ` +
    `files in S3 (the s3-storage plugin). If this directory really is this database's storage ` +
    `(moved, or restored from a backup without that file), write the id into it: ` +
    `echo ${id} > ${file}`
  )
}

/** Whether disk `disk` takes new files or holds any. */
async function diskInUse(disk: string): Promise<boolean> {
  if ((await storage.resolveDefault()) === disk) return true
  return Boolean(await db.from('files').where('disk', disk).first())
}

/**
 * Checks that `root` (the root of disk `disk`) is the storage this database
 * knows, recording the identity on first use. Throws
 * `E_STORAGE_ROOT_NOT_SHARED` with what to do when it is not. Does nothing
 * before the migrations ran, or while the disk is not used (e.g. files go to
 * S3: each instance may then keep an unused local root of its own).
 */
export async function verifySharedStorageRoot(disk: string, root: string): Promise<void> {
  if (!(await db.connection().schema.hasTable(TABLE))) return
  if (!(await diskInUse(disk))) return
  await verifyStorageRootId(disk, root)
}

/**
 * The identity check itself (whether or not the disk is in use): records the
 * root's id, or creates one, and throws `E_STORAGE_ROOT_NOT_SHARED` when the
 * database already knows another.
 */
export async function verifyStorageRootId(disk: string, root: string): Promise<void> {
  mkdirSync(root, { recursive: true })
  const file = join(root, STORAGE_ID_FILE)
  const key = `storage-root:${disk}`

  let rootId = readRootId(file)
  if (!rootId) {
    const known = await recordedId(key)
    // An instance records the id only after linking the file: when the database knows one, an
    // instance sharing this root (started at the same moment) has written the file by now.
    if (known) rootId = readRootId(file)
    if (known && !rootId) {
      throw new E_STORAGE_ROOT_NOT_SHARED([
        `the storage directory ${root} (disk "${disk}") has no ${STORAGE_ID_FILE}, but this ` +
          `database's files are in a storage with id ${known}: this instance does not see the ` +
          `files of the other instances. ${remedy(root, file, known)}`,
      ])
    }
    rootId ??= createRootId(root, file)
  }
  const databaseId = await recordId(key, rootId)
  if (databaseId !== rootId) {
    throw new E_STORAGE_ROOT_NOT_SHARED([
      `the storage directory ${root} (disk "${disk}") has id ${rootId}, but this database's files ` +
        `are in a storage with id ${databaseId}: the directory belongs to another Tern ` +
        `installation, or the database and the files come from different backups, or the ` +
        `instances do not share their storage. ${remedy(root, file, databaseId)}`,
    ])
  }
}
