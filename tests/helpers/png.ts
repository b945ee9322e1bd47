/**
 * PNG images made in tests (real files, encoded by pngjs), for the logo
 * upload and the icons derived from it.
 *
 * ```ts
 * const red = makePng(64, 64, () => [255, 0, 0, 255])
 * const halves = makePng(100, 100, (x) => (x < 50 ? [255, 0, 0, 255] : [0, 0, 255, 255]))
 * const { width, height, pixel } = readPng(bytes)
 * ```
 */
import { PNG } from 'pngjs'

/** An RGBA colour, 0-255 each. */
export type Rgba = [number, number, number, number]

/**
 * A `width` × `height` PNG whose pixel (x, y) is `color(x, y)`. `colorType`
 * 6 = RGBA (default), 2 = RGB (alpha dropped), 0 = grayscale.
 */
export function makePng(
  width: number,
  height: number,
  color: (x: number, y: number) => Rgba,
  colorType: 0 | 2 | 6 = 6
): Buffer {
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(color(x, y), (y * width + x) * 4)
  }
  return PNG.sync.write({ width, height, data }, { colorType })
}

/** A decoded PNG with a pixel reader. */
export function readPng(bytes: Buffer) {
  const { width, height, data } = PNG.sync.read(bytes)
  return {
    width,
    height,
    pixel(x: number, y: number): Rgba {
      const at = (y * width + x) * 4
      return [data[at], data[at + 1], data[at + 2], data[at + 3]]
    },
  }
}

/**
 * The first bytes of a PNG that declares `width` × `height` but holds no
 * image data: enough for a header check, refused by any decoder.
 */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25)
  ihdr.writeUInt32BE(13, 0)
  ihdr.write('IHDR', 4, 'latin1')
  ihdr.writeUInt32BE(width, 8)
  ihdr.writeUInt32BE(height, 12)
  ihdr.set([8, 6, 0, 0, 0], 16)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr])
}
