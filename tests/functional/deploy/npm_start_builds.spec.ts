/**
 * `npm start` (scripts/start.js, scripts/builds.js) in a copy of this checkout,
 * as an operator runs it: the first start builds; an ace command run in the
 * checkout (`node ace migration:run`, which rewrites the generated
 * database/schema.ts) does not make the next start rebuild; a real source
 * change does, into a folder of its own, while the instance started first
 * keeps answering, lazily loaded routes included, from its own build.
 * Two builds in all (each one to two minutes on a loaded machine).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { freePort } from '#tests/helpers/test_database'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BUILD_TIMEOUT = 10 * 60_000

/** A copy of the checkout's files (tracked and new, not ignored), with its node_modules linked. */
function copyCheckout(): string {
  const work = mkdtempSync(join(tmpdir(), 'tern-npm-start-'))
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: ROOT, encoding: 'utf8' }
  )
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(work, file)), { recursive: true })
    cpSync(join(ROOT, file), join(work, file))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'))
  return work
}

interface Instance {
  name: string
  base: string
  child: ChildProcess
  output(): string
  exited: Promise<number | null>
}

/** `npm start` (node scripts/start.js) in `work` on a port and DATA_DIR of its own, SQLite, one process. */
async function npmStart(work: string, name: string): Promise<Instance> {
  const port = await freePort()
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: work,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(work, `data-${name}`),
      DB_CONNECTION: 'sqlite',
      DB_DATABASE: 'tern.sqlite',
      TERN_WORKERS: '1',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { name, base: `http://127.0.0.1:${port}`, child, output: () => output, exited }
}

/** Waits until `instance` answers /api/health with 200 (throws with its output when it exits or never does). */
async function healthy(instance: Instance, timeoutMs = BUILD_TIMEOUT) {
  const deadline = Date.now() + timeoutMs
  let gone = false
  void instance.exited.then(() => (gone = true))
  while (Date.now() < deadline && !gone) {
    const status = await fetch(`${instance.base}/api/health`).then(
      (r) => r.status,
      () => 0
    )
    if (status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${instance.name} did not become healthy:\n${instance.output().slice(-3000)}`)
}

async function stop(instance: Instance) {
  if (instance.child.exitCode === null && instance.child.signalCode === null) {
    instance.child.kill('SIGTERM')
    const force = setTimeout(() => instance.child.kill('SIGKILL'), 10_000)
    await instance.exited
    clearTimeout(force)
  }
}

/** Routes of different controllers and an SSR page: the first request to each loads its code. */
const LAZY_ROUTES = ['/api/configs', '/auth/signIn', '/api/shares/no-such-share', '/api/users/me']

const builtFolders = (work: string) =>
  existsSync(join(work, 'builds'))
    ? readdirSync(join(work, 'builds')).filter((name) => /^[0-9a-f]{16}$/.test(name))
    : []

test.group('npm start | builds', (group) => {
  let work: string
  const instances: Instance[] = []
  group.setup(() => {
    work = copyCheckout()
    return async () => {
      await Promise.all(instances.map(stop))
      rmSync(work, { recursive: true, force: true })
    }
  })

  test('generated files do not rebuild; a real change builds beside the running instance, which keeps answering', async ({
    assert,
  }) => {
    const first = await npmStart(work, 'first')
    instances.push(first)
    await healthy(first)
    const firstServing = Date.now()
    assert.include(first.output(), 'tern: building', 'a fresh clone builds at its first start')

    // An operator's ace command in the checkout rewrites the generated database/schema.ts.
    const migrated = spawnSync(process.execPath, ['ace', 'migration:run', '--force'], {
      cwd: work,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: join(work, 'data-ace'),
        DB_CONNECTION: 'sqlite',
        DB_DATABASE: 'tern.sqlite',
      },
      encoding: 'utf8',
    })
    assert.equal(migrated.status, 0, migrated.stdout + migrated.stderr)
    const schema = join(work, 'database/schema.ts')
    assert.isTrue(existsSync(schema), 'migration:run generated database/schema.ts')
    assert.isAbove(statSync(schema).mtimeMs, firstServing)

    const second = await npmStart(work, 'second')
    instances.push(second)
    const started = Date.now()
    await healthy(second)
    console.log(
      `npm start: a second instance after migration:run served in ${Date.now() - started} ms without building`
    )
    assert.notInclude(second.output(), 'tern: building', 'a generated file is not a changed source')
    const [firstBuild, ...others] = builtFolders(work)
    assert.deepEqual(others, [], 'one build so far')

    // A real change to a source: the next start builds, while the first instance serves on.
    appendFileSync(join(work, 'start/routes.ts'), '\n// changed after the first build\n')
    const answers: string[] = []
    let building = true
    const watch = (async () => {
      while (building) {
        const status = await fetch(`${first.base}/api/health`).then(
          (r) => r.status,
          () => 0
        )
        answers.push(String(status))
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    })()
    const third = await npmStart(work, 'third')
    instances.push(third)
    try {
      await healthy(third)
    } finally {
      building = false
      await watch
    }
    assert.include(third.output(), 'tern: building', 'a changed source is built')
    assert.isAbove(answers.length, 0)
    assert.deepEqual(
      [...new Set(answers)],
      ['200'],
      'the first instance answered throughout the build'
    )

    // Code the first instance had never loaded is still there for it (and for the second).
    for (const instance of [first, second]) {
      for (const path of LAZY_ROUTES) {
        const response = await fetch(`${instance.base}${path}`, { redirect: 'manual' })
        const body = await response.text()
        assert.isBelow(
          response.status,
          500,
          `${instance.name} ${path}: ${response.status} ${body.slice(0, 300)}`
        )
        assert.notInclude(body, 'Cannot find module')
      }
    }
    assert.equal((await fetch(`${third.base}/auth/signIn`)).status, 200)
    assert.lengthOf(
      builtFolders(work),
      2,
      'the new build is a folder of its own, beside the one still in use'
    )

    // Once its instances stopped, the first build is removed (the way npm start prunes at start).
    await stop(first)
    await stop(second)
    const [secondBuild] = builtFolders(work).filter((name) => name !== firstBuild)
    const pruned = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { buildsOf } = await import('./scripts/builds.js'); buildsOf(process.cwd()).prune('${secondBuild}')`,
      ],
      { cwd: work, encoding: 'utf8' }
    )
    assert.equal(pruned.status, 0, pruned.stderr)
    assert.deepEqual(builtFolders(work), [secondBuild])
    assert.equal((await fetch(`${third.base}/api/configs`)).status, 200)
  }).timeout(2 * BUILD_TIMEOUT + 120_000)
})
