import { definePlugin } from '#extensions/plugins/define_plugin'
import { s3ConfigCategory } from './src/config.js'

/**
 * The s3-storage plugin: the `s3` disk on Amazon S3 or any S3-compatible
 * server, configured by the admin category "S3" (`s3.*`).
 */
export const manifest = definePlugin({
  id: 's3-storage',
  displayName: 'S3 storage',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Stores uploaded files in an S3 bucket (Amazon S3, MinIO, Garage, R2, ...). New files go to S3 while s3.enabled is on.',
  provides: { storage: ['s3'] },
  requires: [],
  config: [s3ConfigCategory],
  // First values of the S3 settings, stored when they are first seeded (src/config.ts: seedFromEnv).
  env: s3ConfigCategory.variables.map((variable) => ({
    name: variable.seedFromEnv!,
    required: false,
    description: `First value of ${variable.key}, stored at start while the setting has no value of its own; the admin panel changes it afterwards.`,
  })),
})
