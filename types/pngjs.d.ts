/**
 * The part of pngjs (pure-JavaScript PNG codec, no typings of its own) that
 * Tern uses: the synchronous reader and writer (app/services/branding/png_image.ts).
 */
declare module 'pngjs' {
  /** A decoded image: `data` holds width × height RGBA pixels, 8 bits per channel. */
  export interface PngData {
    width: number
    height: number
    data: Buffer
  }

  /** Options of `PNG.sync.write`. */
  export interface PngWriteOptions {
    /** 6 = RGBA (default), 2 = RGB, 0 = grayscale, 4 = grayscale + alpha. */
    colorType?: 0 | 2 | 4 | 6
    /** zlib level, 0-9. */
    deflateLevel?: number
  }

  export const PNG: {
    sync: {
      /** Decodes any PNG (every color type, bit depth, interlacing) to 8-bit RGBA. Throws on broken data. */
      read(buffer: Buffer): PngData
      /** Encodes 8-bit RGBA pixels as a PNG. */
      write(png: PngData, options?: PngWriteOptions): Buffer
    }
  }
}
