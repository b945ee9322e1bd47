/**
 * The stylesheets of server-rendered pages: the CSS antd's
 * CSS-in-JS generates while a page renders on the server, stored once per
 * distinct content under its SHA-256 and served as
 * `/ssr-styles/<hash>.css` (SsrStylesController), immutable, instead of
 * ~130 KB of inline <style> in every page. The link is render-blocking, so
 * the first paint stays styled; the CSS ends with antd's cache-path rule,
 * from which antd in the browser knows these styles exist and does not
 * inject them again.
 *
 * The SSR entry (inertia/ssr.tsx, a Vite bundle that cannot import server
 * code) reaches the store through `globalThis[SSR_STYLES_KEY]`, as it finds
 * the CSP nonce placeholder. A new sheet is stored in the database (table
 * `ssr_stylesheets`) before the page is answered, so that another worker of
 * a cluster or another instance sharing the database can serve a link this
 * one rendered; a small in-memory LRU (lru-cache) saves the reads.
 */
import { createHash } from 'node:crypto'
import { DateTime } from 'luxon'
import { LRUCache } from 'lru-cache'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'

/** Key under which the SSR entry finds the store on `globalThis`. */
export const SSR_STYLES_KEY = Symbol.for('tern.ssrStyles')

/** URL prefix of the stylesheets (route in start/routes/pages_styles.ts). */
export const SSR_STYLES_PATH = '/ssr-styles'

/** What the SSR entry sees of the store. */
export interface SsrStylesStore {
  /** Stores `css` (if new) and resolves to the URL of its stylesheet. */
  put(css: string): Promise<string>
}

/** A stylesheet's file name: 64 hex digits of SHA-256 and `.css`. */
const FILE_NAME = /^([0-9a-f]{64})\.css$/

/** Style sets are few (page kinds x light/dark x ltr/rtl); 64 covers them, a few MB at most. */
const memory = new LRUCache<string, string>({ max: 64 })

const TABLE = 'ssr_stylesheets'

/** Stores the sheet unless a row with its hash exists (same hash, same content). */
async function store(hash: string, css: string): Promise<void> {
  const createdAt = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
  await db.table(TABLE).insert({ hash, css, created_at: createdAt }).onConflict('hash').ignore()
}

export const ssrStyles: SsrStylesStore = {
  async put(css: string): Promise<string> {
    const hash = createHash('sha256').update(css).digest('hex')
    memory.set(hash, css)
    // Stored by every render, not once per process: renders are few (the render cache
    // answers the rest), and a process must not trust a memory of having stored it
    // (a restored backup, a wiped table). A failed write (database unreachable for a
    // moment) is retried by the next render; this process serves the sheet from memory.
    await store(hash, css).catch((error) =>
      logger.warn({ err: error }, 'could not store a server-render stylesheet')
    )
    return `${SSR_STYLES_PATH}/${hash}.css`
  },
}

/** The CSS of a stylesheet file name (`<hash>.css`), or null when unknown or not a valid name. */
export async function ssrStylesheet(fileName: string): Promise<string | null> {
  const match = FILE_NAME.exec(fileName)
  if (!match) return null
  const hash = match[1]
  const cached = memory.get(hash)
  if (cached !== undefined) return cached
  const row = await db.from(TABLE).where('hash', hash).select('css').first()
  if (!row) return null
  const css = String(row.css)
  memory.set(hash, css)
  return css
}

;(globalThis as Record<symbol, unknown>)[SSR_STYLES_KEY] = ssrStyles
