/**
 * Settings `npm start` reads itself, before the application (and its env
 * validation) runs.
 */

const TRUE = ['', 'true', '1']
const FALSE = ['false', '0']

/**
 * Whether `npm start` applies the migrations (MIGRATE_ON_START, default
 * true). Deployments that migrate in a separate step (the Helm chart's Job
 * running `node ace tern:migrate`) set it to false, so the instances never
 * touch the schema. Throws an error naming the variable for any other value.
 *
 * @param {Record<string, string | undefined>} env
 * @returns {boolean}
 */
export function migrateOnStart(env) {
  const value = (env.MIGRATE_ON_START ?? '').trim().toLowerCase()
  if (TRUE.includes(value)) return true
  if (FALSE.includes(value)) return false
  throw new Error(
    `Value for environment variable "MIGRATE_ON_START" must be true or false, instead received "${env.MIGRATE_ON_START}"`
  )
}
