/** Whether `npm start` applies the migrations (MIGRATE_ON_START, default true); throws on other values. */
export function migrateOnStart(env: Record<string, string | undefined>): boolean
