import { definePlugin } from '#extensions/plugins/define_plugin'
import { gcsConfigCategory } from './src/config.js'

/**
 * The gcs-storage plugin: the `gcs` disk on Google Cloud Storage,
 * configured by the admin category "Google Cloud Storage" (`gcs.*`).
 */
export const manifest = definePlugin({
  id: 'gcs-storage',
  displayName: 'Google Cloud Storage',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Stores uploaded files in a Google Cloud Storage bucket. New files go to Cloud Storage while gcs.enabled is on.',
  provides: { storage: ['gcs'] },
  requires: [],
  config: [gcsConfigCategory],
  env: [],
})
