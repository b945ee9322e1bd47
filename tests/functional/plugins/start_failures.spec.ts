import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'

const FIXTURES = 'tests/fixtures/plugins'

/**
 * Boots the application in a child process (tests/fixtures/plugins/boot_app.ts)
 * with the given plugin environment; resolves to its exit code and output.
 */
function boot(env: { TERN_PLUGINS?: string; TERN_PLUGIN_PATHS?: string }) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TERN_PLUGIN_PATHS: FIXTURES, ...env }
  if (!('TERN_PLUGINS' in env)) delete childEnv.TERN_PLUGINS
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import=@poppinss/ts-exec', `${FIXTURES}/boot_app.ts`],
      { cwd: fileURLToPath(app.appRoot), env: childEnv, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    )
  })
}

type BootEnv = Parameters<typeof boot>[0]
type BootResult = Awaited<ReturnType<typeof boot>>

/**
 * The scenarios, all booted in parallel when the group starts (each boot
 * takes about a second of CPU). The parsing rules themselves (default set,
 * an id listed twice) are covered by tests/unit/plugins.
 */
const scenarios = {
  'ordered': { TERN_PLUGINS: 'fixture,local-storage' },
  'unknown': { TERN_PLUGINS: 'local-storage,no-such-plugin' },
  'duplicate-folder': {
    TERN_PLUGINS: 'local-storage',
    TERN_PLUGIN_PATHS: `${FIXTURES}/duplicates`,
  },
  'invalid-manifest': { TERN_PLUGINS: 'local-storage,broken-manifest' },
  'missing-requirement': { TERN_PLUGINS: 'local-storage,needs-fixture' },
  'engine-mismatch': { TERN_PLUGINS: 'local-storage,future-engine' },
  'boot-fails': { TERN_PLUGINS: 'boot-fails' },
} satisfies Record<string, BootEnv>
const runs = new Map<keyof typeof scenarios, Promise<BootResult>>()

/** Asserts scenario `name` stopped with exit code 1 and exactly `line` on stderr. */
async function assertStopsWith(assert: any, name: keyof typeof scenarios, line: string | RegExp) {
  const result = await runs.get(name)!
  assert.equal(result.code, 1, result.stderr)
  const lines = result.stderr.trim().split('\n')
  assert.lengthOf(lines, 1, result.stderr)
  if (typeof line === 'string') assert.equal(lines[0], line)
  else assert.match(lines[0], line)
  assert.equal(result.stdout, '')
}

test.group('Plugins | start', (group) => {
  group.setup(() => {
    for (const [name, env] of Object.entries(scenarios))
      runs.set(name as keyof typeof scenarios, boot(env))
  })

  test('starts the enabled plugins in dependency order', async ({ assert }) => {
    const result = await runs.get('ordered')!
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(JSON.parse(result.stdout).plugins, ['local-storage', 'fixture'])
  })

  test('stops with one line naming an unknown plugin', async ({ assert }) => {
    await assertStopsWith(
      assert,
      'unknown',
      /^Tern cannot start: E_PLUGIN_UNKNOWN: Unknown plugin "no-such-plugin" in TERN_PLUGINS: no plugin folder/
    )
  })

  test('stops with one line when two plugin folders provide the same id', async ({ assert }) => {
    await assertStopsWith(
      assert,
      'duplicate-folder',
      /^Tern cannot start: E_PLUGIN_DUPLICATE_ID: Duplicate plugin id "local-storage": two plugin folders provide it/
    )
  })

  test('stops with one line naming the plugin and field of an invalid manifest', async ({
    assert,
  }) => {
    await assertStopsWith(
      assert,
      'invalid-manifest',
      'Tern cannot start: E_PLUGIN_INVALID_MANIFEST: Invalid manifest of plugin "broken-manifest": field "version" must be a semantic version such as 1.0.0'
    )
  })

  test('stops with one line when a required plugin is not enabled', async ({ assert }) => {
    await assertStopsWith(
      assert,
      'missing-requirement',
      'Tern cannot start: E_PLUGIN_DEPENDENCY_MISSING: Plugin "needs-fixture" requires plugin "fixture", which is not enabled (add it to TERN_PLUGINS)'
    )
  })

  test('stops with one line when the plugin API version does not match', async ({ assert }) => {
    await assertStopsWith(
      assert,
      'engine-mismatch',
      'Tern cannot start: E_PLUGIN_ENGINE_MISMATCH: Plugin "future-engine" needs plugin API "^99.0.0" but this Tern provides 1.0.0'
    )
  })

  test('stops with one line when a plugin provider fails to boot', async ({ assert }) => {
    await assertStopsWith(
      assert,
      'boot-fails',
      'Tern cannot start: E_PLUGIN_LIFECYCLE_FAILED: Plugin "boot-fails" failed in boot: the fixture refuses to boot'
    )
  })
})
