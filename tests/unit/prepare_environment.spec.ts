import { test } from '@japa/runner'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { prepareEnvironment } from '#start/prepare'

/**
 * prepareEnvironment mutates process.env; each test restores what it touched.
 */
function withEnv(values: Record<string, string | undefined>, fn: () => void) {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]))
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  try {
    fn()
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}

test.group('Environment | DATA_DIR and APP_KEY', (group) => {
  let dir: string
  group.each.setup(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-prepare-'))
    return () => rmSync(dir, { recursive: true, force: true })
  })

  test('generates an APP_KEY into DATA_DIR on first start and reuses it', ({ assert }) => {
    const dataDir = join(dir, 'nested', 'data')
    let first = ''
    withEnv({ DATA_DIR: dataDir, APP_KEY: undefined }, () => {
      prepareEnvironment()
      first = process.env.APP_KEY!
    })
    assert.isAtLeast(first.length, 32)
    assert.equal(readFileSync(join(dataDir, 'app_key'), 'utf8').trim(), first)
    assert.equal(statSync(join(dataDir, 'app_key')).mode & 0o777, 0o600)

    withEnv({ DATA_DIR: dataDir, APP_KEY: undefined }, () => {
      prepareEnvironment()
      assert.equal(process.env.APP_KEY, first)
    })
  })

  test('keeps an APP_KEY given in the environment and writes no key file', ({ assert }) => {
    withEnv({ DATA_DIR: dir, APP_KEY: 'given-key-given-key-given-key-12' }, () => {
      prepareEnvironment()
      assert.equal(process.env.APP_KEY, 'given-key-given-key-given-key-12')
    })
    assert.throws(() => statSync(join(dir, 'app_key')))
  })

  test('resolves a relative DATA_DIR against the working directory', ({ assert }) => {
    withEnv({ DATA_DIR: 'relative-data-dir-for-test', APP_KEY: 'k'.repeat(32) }, () => {
      const cwd = process.cwd()
      process.chdir(dir)
      try {
        prepareEnvironment()
        assert.equal(process.env.DATA_DIR, join(dir, 'relative-data-dir-for-test'))
      } finally {
        process.chdir(cwd)
      }
    })
  })

  test('names DATA_DIR when the directory cannot be created', ({ assert }) => {
    const blocker = join(dir, 'a-file')
    writeFileSync(blocker, 'not a directory')
    withEnv({ DATA_DIR: join(blocker, 'data'), APP_KEY: 'k'.repeat(32) }, () => {
      assert.throws(() => prepareEnvironment(), /DATA_DIR/)
    })
  })
})
