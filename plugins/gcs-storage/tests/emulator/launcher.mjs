/**
 * Starts the Cloud Storage emulator of firebase-tools offline, for the
 * gcs-storage tests (run by `gcs_emulator.ts` as a child process):
 *
 *   node launcher.mjs <firebase-tools folder> <port> <project id> <blob folder>
 *
 * The emulator's CLI needs Java and downloads a Firebase rules JAR; this
 * launcher needs neither: GCS JSON API requests never evaluate Firebase
 * rules, so the rules runtime's start/stop/loadRuleset become no-ops, and
 * the emulator is started through `EmulatorRegistry.start` on the given
 * loopback port. Its blobs go to <blob folder> (not the shared
 * `$TMPDIR/firebase/storage/blobs`, which `stop()` empties).
 *
 * The emulator has no `objects.compose`; the launcher adds it (JSON API
 * `POST /b/<bucket>/o/<object>/compose`, with Cloud Storage's rules: 1 to
 * 32 sources of the same bucket, each at its `generation` when given, else
 * 404) over the emulator's own storage layer.
 *
 * Prints one JSON line `{"host","port"}` once it listens; stops when its
 * stdin closes or on SIGTERM/SIGINT.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'

const [firebaseTools, portText, projectId, blobFolder] = process.argv.slice(2)
if (!firebaseTools || !portText || !projectId || !blobFolder) {
  console.error(
    'usage: node launcher.mjs <firebase-tools folder> <port> <project id> <blob folder>'
  )
  process.exit(2)
}
const require = createRequire(join(firebaseTools, 'package.json'))
const { StorageRulesRuntime } = require('./lib/emulator/storage/rules/runtime.js')
const { StorageEmulator } = require('./lib/emulator/storage/index.js')
const { EmulatorRegistry } = require('./lib/emulator/registry.js')
const { NotFoundError } = require('./lib/emulator/storage/errors.js')
const { CloudStorageObjectMetadata } = require('./lib/emulator/storage/metadata.js')
const express = require('express')

// No rules runtime: the JSON API (admin) paths never evaluate rules.
StorageRulesRuntime.prototype.start = async function () {}
StorageRulesRuntime.prototype.stop = async function () {}
StorageRulesRuntime.prototype.loadRuleset = async function () {
  return {
    ruleset: { verify: async () => ({ permitted: false }) },
    issues: { errors: [], warnings: [], all: [] },
  }
}
StorageEmulator.prototype.getPersistenceTmpDir = () => blobFolder

/** `objects.compose` (missing from the emulator), on the admin storage layer. */
function composeRouter(emulator) {
  const router = express.Router()
  const handler = async (req, res) => {
    const layer = emulator.adminStorageLayer
    const { bucketId, objectId } = req.params
    const sources = req.body?.sourceObjects
    if (!Array.isArray(sources) || sources.length < 1 || sources.length > 32) {
      return res
        .status(400)
        .json({ error: { code: 400, message: 'sourceObjects must hold 1 to 32 objects' } })
    }
    const parts = []
    for (const source of sources) {
      if (typeof source?.name !== 'string' || source.name === '') {
        return res
          .status(400)
          .json({ error: { code: 400, message: 'Every source object needs a name' } })
      }
      let object
      try {
        object = await layer.getObject({ bucketId, decodedObjectId: source.name })
      } catch (error) {
        if (error instanceof NotFoundError) {
          return res
            .status(404)
            .json({ error: { code: 404, message: `No such object: ${bucketId}/${source.name}` } })
        }
        throw error
      }
      if (
        source.generation !== undefined &&
        String(object.metadata.generation) !== String(source.generation)
      ) {
        return res.status(404).json({
          error: {
            code: 404,
            message: `No such object: ${bucketId}/${source.name}#${source.generation}`,
          },
        })
      }
      parts.push(object.data)
    }
    const destination = req.body.destination ?? {}
    const metadata = { contentType: destination.contentType || 'application/octet-stream' }
    for (const field of [
      'contentDisposition',
      'contentEncoding',
      'contentLanguage',
      'cacheControl',
      'metadata',
    ]) {
      if (destination[field] !== undefined && destination[field] !== null)
        metadata[field] = destination[field]
    }
    const upload = emulator.uploadService.multipartUpload({
      bucketId,
      objectId,
      dataRaw: Buffer.concat(parts),
      metadata,
      authorization: 'Bearer owner',
    })
    const stored = await layer.uploadObject(upload)
    res.json(new CloudStorageObjectMetadata(stored))
  }
  const paths = ['/b/:bucketId/o/:objectId/compose', '/storage/v1/b/:bucketId/o/:objectId/compose']
  router.post(paths, express.json({ limit: '1mb' }), (req, res, next) => {
    emulator.adminStorageLayer.createBucket(req.params.bucketId)
    handler(req, res).catch(next)
  })
  return router
}

const emulator = new StorageEmulator({
  projectId,
  host: '127.0.0.1',
  port: Number(portText),
  rules: { name: join(blobFolder, 'storage.rules'), content: '' },
  auto_download: false,
})
// Put the compose route in front of the emulator's routers (the last one answers 501).
const serverModule = require('./lib/emulator/storage/server.js')
const createApp = serverModule.createApp
serverModule.createApp = async (...args) => {
  const app = await createApp(...args)
  app.use(composeRouter(emulator))
  const stack = app._router.stack
  const layer = stack.pop()
  const firstRouter = stack.findIndex((entry) => entry.name === 'router')
  stack.splice(firstRouter === -1 ? stack.length : firstRouter, 0, layer)
  return app
}

await EmulatorRegistry.start(emulator)
process.stdout.write(`${JSON.stringify({ host: '127.0.0.1', port: Number(portText) })}\n`)

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  try {
    await EmulatorRegistry.stop('storage')
  } finally {
    process.exit(0)
  }
}
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
