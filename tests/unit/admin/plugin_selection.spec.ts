import { test } from '@japa/runner'
import {
  pluginIdOfPath,
  selectEnabledPlugins,
} from '../../../inertia/admin/lib/plugin_selection.js'

test.group('Admin | plugin UIs', () => {
  test('the plugin id comes from the module path', ({ assert }) => {
    assert.equal(pluginIdOfPath('../../plugins/s3-storage/admin/index.tsx'), 's3-storage')
    assert.equal(pluginIdOfPath('/plugins/webhook/admin/index.tsx'), 'webhook')
    assert.isNull(pluginIdOfPath('../../plugins/s3-storage/admin/disks.tsx'))
    assert.isNull(pluginIdOfPath('../../plugins/s3-storage/index.tsx'))
  })

  test('only enabled plugins are kept, in the order the server reports', ({ assert }) => {
    const modules = {
      '../../plugins/a/admin/index.tsx': 'A',
      '../../plugins/b/admin/index.tsx': 'B',
      '../../plugins/c/admin/index.tsx': 'C',
    }
    assert.deepEqual(selectEnabledPlugins(modules, ['c', 'a', 'missing']), [
      ['c', 'C'],
      ['a', 'A'],
    ])
    assert.deepEqual(selectEnabledPlugins(modules, []), [])
  })
})
