/**
 * Podman for Tern's container tests: installs podman, runc and debootstrap with
 * apt-get when they are missing (root only, as `npm test` does for chromium),
 * makes the Debian base image this machine can reach (no container registry:
 * `debootstrap --variant=minbase bookworm`, then `podman import`), builds the
 * Containerfile on it and runs containers. Every podman call uses the project's
 * containers.conf next to this file (CONTAINERS_CONF), never the machine's.
 */
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The project root, the build context of the Containerfile. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CONF = fileURLToPath(new URL('containers.conf', import.meta.url))
const SUITE = 'bookworm'
const VARIANT = 'minbase'
const MIRROR = 'http://deb.debian.org/debian'
/** The rootfs cache lives outside the clone so CI runs reuse it; keyed by suite and variant. */
const CACHE = process.env.TERN_TEST_CACHE || '/var/cache/tern-tests'
/** The imported base image, passed to the Containerfile as BASE_IMAGE. */
export const BASE_IMAGE = `localhost/tern-test-base:${SUITE}-${VARIANT}`
/** The image built from the working tree. */
export const TERN_IMAGE = 'localhost/tern:test'
const HOST_CA = '/etc/ssl/certs/ca-certificates.crt'

const env = { ...process.env, CONTAINERS_CONF: CONF, DEBIAN_FRONTEND: 'noninteractive' }

/** Runs podman; resolves with stdout, rejects with its stderr in the message. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run('podman', args, { env, timeout: timeoutMs, maxBuffer: 64 << 20 })
    return stdout.trim()
  } catch (error) {
    const { stdout, stderr, message } = error as {
      stdout?: string
      stderr?: string
      message: string
    }
    const output = `${stdout ?? ''}\n${stderr ?? ''}`.trim().split('\n').slice(-40).join('\n')
    throw new Error(`podman ${args.slice(0, 2).join(' ')} failed: ${output || message}`)
  }
}

/** Installs the Debian packages the tests need, or fails saying what is missing. */
function ensureTools() {
  const missing = [
    ['podman', '/usr/bin/podman'],
    ['runc', '/usr/sbin/runc'],
    ['debootstrap', '/usr/sbin/debootstrap'],
  ]
    .filter(([, path]) => !existsSync(path))
    .map(([name]) => name)
  if (missing.length === 0) return
  if (process.getuid?.() !== 0) {
    throw new Error(
      `container tests need ${missing.join(', ')}: install them (apt-get install -y ${missing.join(' ')}) or run the tests as root`
    )
  }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0)
      throw new Error(`apt-get ${args.join(' ')} failed (status ${result.status})`)
  }
}

/**
 * Makes sure BASE_IMAGE exists: imports the cached rootfs, running debootstrap
 * first when there is none (about 30 s). Apt caches, docs and locales are left
 * out of the import, like Debian's slim images do.
 */
async function ensureBaseImage() {
  if (spawnSync('podman', ['image', 'exists', BASE_IMAGE], { env }).status === 0) return
  const rootfs = `${CACHE}/${SUITE}-${VARIANT}`
  if (!existsSync(rootfs)) {
    mkdirSync(CACHE, { recursive: true })
    const partial = `${rootfs}.${process.pid}.tmp`
    const result = spawnSync('debootstrap', [`--variant=${VARIANT}`, SUITE, partial, MIRROR], {
      env,
      encoding: 'utf8',
    })
    if (result.status !== 0)
      throw new Error(`debootstrap failed: ${result.stderr || result.stdout}`)
    for (const dir of [
      'var/cache/apt/archives',
      'var/lib/apt/lists',
      'usr/share/doc',
      'usr/share/man',
      'usr/share/locale',
    ]) {
      rmSync(`${partial}/${dir}`, { recursive: true, force: true })
      mkdirSync(`${partial}/${dir}`, { recursive: true })
    }
    // A concurrent run may have finished first: its rootfs is as good as ours.
    if (existsSync(rootfs)) rmSync(partial, { recursive: true, force: true })
    else renameSync(partial, rootfs)
  }
  const result = spawnSync(
    'sh',
    ['-c', `tar -C "${rootfs}" -c . | podman import -q - ${BASE_IMAGE}`],
    { env, encoding: 'utf8' }
  )
  if (result.status !== 0) throw new Error(`podman import failed: ${result.stderr}`)
}

let built: Promise<{ seconds: number }> | null = null

/**
 * Builds TERN_IMAGE from the working tree once per process (layers are cached by
 * podman across runs). The build stage reaches the npm registry through the
 * host's network; the host's CA bundle goes in as a build secret, which is
 * mounted for single steps and never stored in a layer.
 */
export function buildTernImage(): Promise<{ seconds: number }> {
  built ??= (async () => {
    ensureTools()
    if (spawnSync('podman', ['info'], { env }).status !== 0) {
      const info = spawnSync('podman', ['info'], { env, encoding: 'utf8' })
      throw new Error(`podman cannot run on this machine: ${info.stderr.trim()}`)
    }
    await ensureBaseImage()
    const started = Date.now()
    const secret = existsSync(HOST_CA) ? ['--secret', `id=ca,src=${HOST_CA}`] : []
    const common = [
      'build',
      '--format',
      'docker',
      '--network',
      'host',
      '--layers',
      '--build-arg',
      `BASE_IMAGE=${BASE_IMAGE}`,
      ...secret,
    ]
    // The build stage comes from podman's layer cache in a second when nothing changed;
    // the final stage's COPY --from is not cached by podman (it re-copies 500 MB), so
    // the final image is rebuilt only when its inputs differ: the build stage, the
    // base image and the Containerfile, recorded in a label.
    const imageId = (image: string) =>
      podman(['image', 'inspect', '--format', '{{.Id}}', image]).catch(() => '')
    const previous = [await imageId(`${TERN_IMAGE}-build`), await imageId(TERN_IMAGE)]
    await podman(
      [...common, '--target', 'build', '-t', `${TERN_IMAGE}-build`, PROJECT_ROOT],
      20 * 60_000
    )
    const key = createHash('sha256')
      .update(
        await podman(['image', 'inspect', '--format', '{{.Id}}', `${TERN_IMAGE}-build`, BASE_IMAGE])
      )
      .update(readFileSync(`${PROJECT_ROOT}/Containerfile`))
      .digest('hex')
    const current = await podman([
      'image',
      'inspect',
      '--format',
      '{{index .Labels "tern.test-inputs"}}',
      TERN_IMAGE,
    ]).catch(() => '')
    if (current !== key) {
      await podman(
        [...common, '--label', `tern.test-inputs=${key}`, '-t', TERN_IMAGE, PROJECT_ROOT],
        20 * 60_000
      )
    }
    // Images replaced by this build would stay as untagged gigabytes on CI machines;
    // one still used (a container, another run's build) is kept by podman.
    const now = [await imageId(`${TERN_IMAGE}-build`), await imageId(TERN_IMAGE)]
    for (const id of previous.filter((old) => old && !now.includes(old)))
      await podman(['rmi', id]).catch(() => {})
    return { seconds: (Date.now() - started) / 1000 }
  })()
  return built
}

/** Starts a detached container on the host network and returns its id. */
export function runContainer(
  name: string,
  options: { env?: Record<string, string>; volume?: string; image?: string; readOnly?: boolean }
) {
  const args = ['run', '-d', '--name', name, '--network', 'host', '--health-interval', 'disable']
  // A read-only root file system, as Kubernetes' readOnlyRootFilesystem runs it: only
  // /data (the volume) and podman's tmpfs mounts (/tmp, /var/tmp, /run) are writable.
  if (options.readOnly) args.push('--read-only', '--read-only-tmpfs=true')
  for (const [key, value] of Object.entries(options.env ?? {})) args.push('-e', `${key}=${value}`)
  if (options.volume) args.push('-v', `${options.volume}:/data`)
  return podman([...args, options.image ?? TERN_IMAGE])
}

/** Removes containers and volumes, ignoring those already gone. */
export async function removeAll(containers: string[], volumes: string[] = []) {
  // -v: also the anonymous volume a container without -v gets for the image's VOLUME /data.
  for (const name of containers) await podman(['rm', '-f', '-v', '-t', '0', name]).catch(() => {})
  for (const name of volumes) await podman(['volume', 'rm', '-f', name]).catch(() => {})
}
