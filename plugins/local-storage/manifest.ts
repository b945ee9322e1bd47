import { definePlugin } from '#extensions/plugins/define_plugin'

/** The local-storage plugin: the `local` disk, files under `${DATA_DIR}/uploads`. */
export const manifest = definePlugin({
  id: 'local-storage',
  displayName: 'Local storage',
  version: '1.0.0',
  engine: '^1.0.0',
  description: 'Stores uploaded files on the local filesystem under DATA_DIR/uploads.',
  provides: { storage: ['local'] },
  requires: [],
  env: [{ name: 'DATA_DIR', required: true, description: 'Files go to DATA_DIR/uploads' }],
})
