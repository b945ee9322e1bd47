/**
 * The little image processing the logo needs, in pure JavaScript: read a
 * PNG's size from its header, decode and encode PNG (pngjs), resize with a
 * filter that averages on the way down (no aliasing in small icons) and
 * interpolates on the way up, and wrap a PNG into a `.ico` file.
 */
import { PNG } from 'pngjs'

/** The 8 bytes every PNG file starts with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Pixels of an image: width × height RGBA, 8 bits per channel, not premultiplied. */
export interface RgbaImage {
  width: number
  height: number
  data: Buffer
}

/**
 * The size a PNG declares in its IHDR chunk, or null when `bytes` does not
 * start like a PNG file (signature, then an IHDR chunk of 13 bytes). Reads
 * only the header, so it is safe before decoding (a decompression bomb is
 * refused by its declared size).
 */
export function readPngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null
  const width = bytes.readUInt32BE(16)
  const height = bytes.readUInt32BE(20)
  if (width === 0 || height === 0) return null
  return { width, height }
}

/** Decodes a PNG into RGBA pixels. Throws when the data is broken. */
export function decodePng(bytes: Buffer): RgbaImage {
  const { width, height, data } = PNG.sync.read(bytes)
  return { width, height, data }
}

/** Encodes RGBA pixels as a PNG. */
export function encodePng(image: RgbaImage): Buffer {
  return PNG.sync.write(image, { colorType: 6, deflateLevel: 9 })
}

/**
 * One axis of a separable resize: for each destination position, the source
 * positions it reads and their weights (summing to 1). A triangle filter
 * widened by the scale factor when shrinking (an area average), plain linear
 * interpolation when growing.
 */
function axisWeights(sourceSize: number, targetSize: number) {
  const scale = sourceSize / targetSize
  const support = Math.max(1, scale)
  const starts = new Int32Array(targetSize)
  const counts = new Int32Array(targetSize)
  const weights: Float32Array[] = []
  for (let i = 0; i < targetSize; i++) {
    const center = (i + 0.5) * scale - 0.5
    const first = Math.floor(center - support) + 1
    const last = Math.ceil(center + support) - 1
    const row = new Float32Array(last - first + 1)
    let total = 0
    for (let j = first; j <= last; j++) {
      const weight = Math.max(0, 1 - Math.abs(j - center) / support)
      row[j - first] = weight
      total += weight
    }
    // Positions outside the image repeat the edge pixel.
    starts[i] = first
    counts[i] = row.length
    for (let k = 0; k < row.length; k++) row[k] = total > 0 ? row[k] / total : 0
    weights.push(row)
  }
  return { starts, counts, weights }
}

const clampIndex = (index: number, size: number) =>
  index < 0 ? 0 : index >= size ? size - 1 : index

/**
 * Resizes an image to `width` × `height`. Colours are averaged with their
 * alpha (premultiplied), so transparent pixels do not darken the edges.
 */
export function resizeImage(image: RgbaImage, width: number, height: number): RgbaImage {
  const { width: sw, height: sh, data } = image
  const horizontal = axisWeights(sw, width)
  const vertical = axisWeights(sh, height)

  // Horizontal pass into premultiplied floats: sh rows × width columns.
  const middle = new Float32Array(width * sh * 4)
  for (let y = 0; y < sh; y++) {
    const rowOffset = y * sw * 4
    for (let x = 0; x < width; x++) {
      const start = horizontal.starts[x]
      const weights = horizontal.weights[x]
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let k = 0; k < horizontal.counts[x]; k++) {
        const weight = weights[k]
        if (weight === 0) continue
        const p = rowOffset + clampIndex(start + k, sw) * 4
        const alpha = data[p + 3] * weight
        r += data[p] * alpha
        g += data[p + 1] * alpha
        b += data[p + 2] * alpha
        a += alpha
      }
      const q = (y * width + x) * 4
      middle[q] = r
      middle[q + 1] = g
      middle[q + 2] = b
      middle[q + 3] = a
    }
  }

  // Vertical pass, then back to straight alpha in bytes.
  const out = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    const start = vertical.starts[y]
    const weights = vertical.weights[y]
    for (let x = 0; x < width; x++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let k = 0; k < vertical.counts[y]; k++) {
        const weight = weights[k]
        if (weight === 0) continue
        const p = (clampIndex(start + k, sh) * width + x) * 4
        r += middle[p] * weight
        g += middle[p + 1] * weight
        b += middle[p + 2] * weight
        a += middle[p + 3] * weight
      }
      const q = (y * width + x) * 4
      if (a > 0) {
        out[q] = Math.min(255, Math.round(r / a))
        out[q + 1] = Math.min(255, Math.round(g / a))
        out[q + 2] = Math.min(255, Math.round(b / a))
        out[q + 3] = Math.min(255, Math.round(a))
      }
    }
  }
  return { width, height, data: out }
}

/**
 * Wraps one PNG image into an ICO file (Windows icon with a single PNG
 * entry, which every current browser reads). `size` is the PNG's width and
 * height in pixels (1-256).
 */
export function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6) // width (0 = 256)
  header.writeUInt8(size >= 256 ? 0 : size, 7) // height
  header.writeUInt8(0, 8) // no palette
  header.writeUInt8(0, 9) // reserved
  header.writeUInt16LE(1, 10) // colour planes
  header.writeUInt16LE(32, 12) // bits per pixel
  header.writeUInt32LE(png.length, 14) // size of the image data
  header.writeUInt32LE(header.length, 18) // offset of the image data
  return Buffer.concat([header, png])
}
