/**
 * Static files of public/ (@adonisjs/static, serve-static underneath) and
 * Vite's build output under /assets/ (#middleware/hashed_assets_middleware).
 *
 * - /assets/*: file names carry a content hash, so browsers keep them a year
 *   without asking again (`immutable`); the hashed-assets middleware answers
 *   them from memory, brotli/gzip made once per file. The few it leaves to
 *   serve-static (larger than `maxFileBytes`) get the same header here.
 * - /assets/server/ (the SSR bundle) and /assets/.vite/ (manifests) are for
 *   the server's own use (config/vite.ts): 404 over HTTP.
 * - Every other public file (/img, favicon, robots…): 10 minutes, then
 *   revalidated by ETag / Last-Modified (304).
 */
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/static'
import type { HashedAssetsOptions } from '#services/http/hashed_assets'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=600, must-revalidate'

/** The folder Vite builds into: config/vite.ts' buildDirectory. */
const assetsRoot = app.makePath('public/assets')

export const hashedAssets: HashedAssetsOptions = {
  root: assetsRoot,
  privateFolders: ['server/', '.vite/'],
  maxCacheBytes: 64 * 1024 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  cacheControl: IMMUTABLE,
  revalidateCacheControl: REVALIDATE,
}

const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  headers: (path) => ({
    'Cache-Control': path.startsWith(`${assetsRoot}/`) ? IMMUTABLE : REVALIDATE,
  }),
})

export default staticServerConfig
