/**
 * The part of `compression` (Express' response compression, no typings of its
 * own; @types/compression would pull in all of Express' types) that Tern uses
 * in app/middleware/compression_middleware.ts: the connect-style middleware
 * factory with its options.
 */
declare module 'compression' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  import type { BrotliOptions, ZlibOptions } from 'node:zlib'

  export interface CompressionOptions extends ZlibOptions {
    /** Whether to consider compressing this answer (called when its headers are written). */
    filter?: (req: IncomingMessage, res: ServerResponse) => boolean
    /** Bodies smaller than this (bytes, or a string like '1kb') go out as they are. */
    threshold?: number | string
    brotli?: BrotliOptions
  }

  type Middleware = (
    req: IncomingMessage,
    res: ServerResponse,
    next: (error?: unknown) => void
  ) => void

  interface Compression {
    (options?: CompressionOptions): Middleware
    /** The default filter: whether the Content-Type is compressible (mime-db). */
    filter(req: IncomingMessage, res: ServerResponse): boolean
  }

  const compression: Compression
  export default compression
}

/** `compressible` (mime-db's "compressible" flag): whether a Content-Type is worth compressing. */
declare module 'compressible' {
  export default function compressible(type: string): boolean | undefined
}

/** `negotiator` (HTTP content negotiation): the encodings a request accepts, best first. */
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http'
  export default class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders })
    /** The best of `available` (q=0 excluded, ties in `options.preferred` order), or undefined. */
    encoding(available?: string[], options?: { preferred?: string[] }): string | undefined
  }
}
