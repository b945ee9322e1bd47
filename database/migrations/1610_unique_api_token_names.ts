import { BaseSchema } from '@adonisjs/lucid/schema'

/** Longest token name (the column's length). */
const NAME_LENGTH = 100

/**
 * A user's API tokens have distinct names (ApiTokenService refuses a second
 * one with 409): the list on the account page and the revoke confirmation
 * name a token by its name only. An install that already holds two tokens of
 * one user with the same name (case aside) keeps the oldest as it is and
 * renames the later ones "name (2)", "name (3)"... before the unique index
 * is added.
 * `down` drops the index and leaves the names.
 */
export default class extends BaseSchema {
  protected tableName = 'api_tokens'

  async up() {
    this.defer(async (db) => {
      const rows: { id: string; user_id: string; name: string }[] = await db
        .from(this.tableName)
        .select('id', 'user_id', 'name')
        .orderBy('user_id')
        .orderBy('created_at')
        .orderBy('id')
      // Compared without case: ApiTokenService does, and so does MySQL's collation (the index would refuse "CI" beside "ci").
      const key = (name: string) => name.toLocaleLowerCase('en-US')
      const taken = new Map<string, Set<string>>()
      for (const row of rows) {
        if (!taken.has(row.user_id)) taken.set(row.user_id, new Set())
        taken.get(row.user_id)!.add(key(row.name))
      }
      const kept = new Map<string, Set<string>>()
      for (const row of rows) {
        if (!kept.has(row.user_id)) kept.set(row.user_id, new Set())
        const names = kept.get(row.user_id)!
        if (!names.has(key(row.name))) {
          names.add(key(row.name))
          continue
        }
        const used = taken.get(row.user_id)!
        let name = row.name
        for (let n = 2; used.has(key(name)); n++) {
          const suffix = ` (${n})`
          name = `${row.name.slice(0, NAME_LENGTH - suffix.length)}${suffix}`
        }
        used.add(key(name))
        names.add(key(name))
        await db.from(this.tableName).where('id', row.id).update({ name })
      }
    })
    this.schema.alterTable(this.tableName, (table) => {
      table.unique(['user_id', 'name'])
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropUnique(['user_id', 'name'])
    })
  }
}
