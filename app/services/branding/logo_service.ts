/**
 * The instance's logo (`POST /api/configs/admin/logo`): an admin uploads a
 * square PNG; Tern keeps it under `DATA_DIR/images/` together with the
 * favicon and app icons derived from it, and serves them at `/img/...`
 * (`BRANDING_IMAGES`). Until a logo is uploaded (or after it is removed) the
 * same names answer the built-in Tern logo (`resources/branding/default_logo.png`)
 * and icons derived from it.
 *
 * Several instances see the same logo only when they share DATA_DIR (as they
 * already must for the SQLite database and local uploads); each instance
 * notices a changed file by its size and modification time.
 *
 * ```ts
 * const logoService = await app.container.make(LogoService) // or inject it
 *
 * await logoService.save(pngBytes)                 // 400/413 exceptions when refused
 * const image = await logoService.read('favicon.png') // { bytes, etag, contentType, custom }
 * ```
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import {
  decodePng,
  encodePng,
  pngToIco,
  readPngSize,
  resizeImage,
  type RgbaImage,
} from '#services/branding/png_image'
import {
  LogoDimensionsTooLargeException,
  LogoFileTooLargeException,
  LogoNotPngException,
  LogoNotSquareException,
} from '#services/branding/branding_errors'

/** Largest accepted upload, in bytes (5 MB). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024

/** Largest accepted width (= height) of an uploaded logo, in pixels. */
export const LOGO_MAX_DIMENSION = 4096

/** A larger logo is stored scaled down to this width (= height); the icons are derived from that copy. */
export const LOGO_STORED_DIMENSION = 1024

/** Sizes of the app icons (`icons/icon-<n>x<n>.png`), as Pingvin Share derived them. */
export const ICON_SIZES = [48, 72, 96, 128, 144, 152, 192, 384, 512] as const

/** One image served under `/img/`. `size` null = the logo itself. */
export interface BrandingRendition {
  /** Path below `/img/` (and below `DATA_DIR/images/`). */
  name: string
  size: number | null
  format: 'png' | 'ico'
}

/** Every image derived from the logo, by its path below `/img/`. */
export const BRANDING_IMAGES: readonly BrandingRendition[] = [
  { name: 'logo.png', size: null, format: 'png' },
  { name: 'favicon.png', size: 32, format: 'png' },
  { name: 'favicon.ico', size: 32, format: 'ico' },
  { name: 'apple-touch-icon.png', size: 180, format: 'png' },
  ...ICON_SIZES.map((size) => ({
    name: `icons/icon-${size}x${size}.png`,
    size,
    format: 'png' as const,
  })),
]

/** An image ready to be answered. */
export interface BrandingImage {
  bytes: Buffer
  /** A strong ETag (quoted) of the bytes. */
  etag: string
  contentType: string
  /** True for an uploaded logo (or derived from one), false for the built-in one. */
  custom: boolean
}

const CONTENT_TYPES = { png: 'image/png', ico: 'image/x-icon' } as const

function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`
}

/**
 * Every rendition of a logo, by name. `original` (the uploaded bytes) is kept
 * as `logo.png` when it needs no scaling down.
 */
export function renderBrandingImages(image: RgbaImage, original?: Buffer): Map<string, Buffer> {
  const scaled = image.width > LOGO_STORED_DIMENSION
  const master = scaled ? resizeImage(image, LOGO_STORED_DIMENSION, LOGO_STORED_DIMENSION) : image
  const files = new Map<string, Buffer>()
  for (const rendition of BRANDING_IMAGES) {
    if (rendition.size === null) {
      files.set(rendition.name, !scaled && original ? original : encodePng(master))
      continue
    }
    const png = encodePng(resizeImage(master, rendition.size, rendition.size))
    files.set(rendition.name, rendition.format === 'ico' ? pngToIco(png, rendition.size) : png)
  }
  return files
}

interface CachedFile {
  ino: number
  mtimeMs: number
  size: number
  image: BrandingImage
}

/**
 * See the module comment. One per process (it caches the images): the
 * container holds it as a singleton (providers/tern_provider.ts), so resolve
 * or inject it; `new LogoService(dir)` is for tests (another instance).
 */
export default class LogoService {
  readonly #directory: string | undefined
  readonly #builtinLogoPath: string | undefined
  #builtin?: Promise<Map<string, BrandingImage>>
  #custom = new Map<string, CachedFile>()

  /**
   * @param directory where uploaded logos go (default `DATA_DIR/images`)
   * @param builtinLogoPath the built-in logo PNG (default `resources/branding/default_logo.png`)
   */
  constructor(directory?: string, builtinLogoPath?: string) {
    this.#directory = directory
    this.#builtinLogoPath = builtinLogoPath
  }

  /** The directory holding the uploaded logo and its derived images. */
  get directory(): string {
    return this.#directory ?? join(env.get('DATA_DIR'), 'images')
  }

  /**
   * Checks an upload and decodes it. Throws `LogoFileTooLargeException` (413)
   * past `LOGO_MAX_BYTES`, `LogoNotPngException` (400) when it is not a PNG
   * or cannot be decoded, `LogoNotSquareException` (400) when width and
   * height differ, `LogoDimensionsTooLargeException` (400) past
   * `LOGO_MAX_DIMENSION` (checked on the header, before decoding).
   */
  validate(bytes: Buffer): RgbaImage {
    if (bytes.length > LOGO_MAX_BYTES) throw new LogoFileTooLargeException(LOGO_MAX_BYTES)
    const size = readPngSize(bytes)
    if (!size) throw new LogoNotPngException()
    if (size.width !== size.height) throw new LogoNotSquareException()
    if (size.width > LOGO_MAX_DIMENSION)
      throw new LogoDimensionsTooLargeException(LOGO_MAX_DIMENSION)
    try {
      return decodePng(bytes)
    } catch {
      throw new LogoNotPngException()
    }
  }

  /**
   * Validates (see `validate`) and stores a new logo with every derived
   * image, replacing the previous ones. Each file is written aside and
   * renamed into place, the logo last, so readers never see a partial file.
   */
  async save(bytes: Buffer): Promise<void> {
    const files = renderBrandingImages(this.validate(bytes), bytes)
    const directory = this.directory
    const ordered = [...files].sort(
      ([a], [b]) => Number(a === 'logo.png') - Number(b === 'logo.png')
    )
    for (const [name, data] of ordered) {
      const target = join(directory, name)
      await mkdir(dirname(target), { recursive: true })
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temporary, data)
      await rename(temporary, target)
    }
    this.#custom.clear()
  }

  /** Removes the uploaded logo and its derived images: the built-in ones are served again. */
  async remove(): Promise<void> {
    const directory = this.directory
    for (const { name } of [...BRANDING_IMAGES].reverse()) {
      await rm(join(directory, name), { force: true })
    }
    this.#custom.clear()
  }

  /** True when an uploaded logo is in place. */
  async hasCustomLogo(): Promise<boolean> {
    return (await this.#readCustom('logo.png')) !== null
  }

  /**
   * The image served at `/img/<name>`: the uploaded rendition when there is
   * one, else the built-in one; null for a name that is not in `BRANDING_IMAGES`.
   */
  async read(name: string): Promise<BrandingImage | null> {
    const rendition = BRANDING_IMAGES.find((item) => item.name === name)
    if (!rendition) return null
    const custom = await this.#readCustom(rendition.name)
    if (custom) return custom
    const builtin = await this.#builtinImages()
    return builtin.get(rendition.name) ?? null
  }

  async #readCustom(name: string): Promise<BrandingImage | null> {
    const path = join(this.directory, name)
    let info
    try {
      info = await stat(path)
    } catch {
      this.#custom.delete(name)
      return null
    }
    const cached = this.#custom.get(name)
    if (
      cached &&
      cached.ino === info.ino &&
      cached.mtimeMs === info.mtimeMs &&
      cached.size === info.size
    ) {
      return cached.image
    }
    let bytes: Buffer
    try {
      bytes = await readFile(path)
    } catch {
      return null
    }
    const rendition = BRANDING_IMAGES.find((item) => item.name === name)!
    const image = {
      bytes,
      etag: etagOf(bytes),
      contentType: CONTENT_TYPES[rendition.format],
      custom: true,
    }
    this.#custom.set(name, { ino: info.ino, mtimeMs: info.mtimeMs, size: info.size, image })
    return image
  }

  #builtinImages(): Promise<Map<string, BrandingImage>> {
    if (this.#builtin) return this.#builtin
    this.#builtin = (async () => {
      const path = this.#builtinLogoPath ?? app.makePath('resources/branding/default_logo.png')
      const original = await readFile(path)
      const files = renderBrandingImages(decodePng(original), original)
      const images = new Map<string, BrandingImage>()
      for (const rendition of BRANDING_IMAGES) {
        const bytes = files.get(rendition.name)!
        images.set(rendition.name, {
          bytes,
          etag: etagOf(bytes),
          contentType: CONTENT_TYPES[rendition.format],
          custom: false,
        })
      }
      return images
    })()
    // A failed read is tried again on the next request.
    this.#builtin.catch(() => (this.#builtin = undefined))
    return this.#builtin
  }
}
