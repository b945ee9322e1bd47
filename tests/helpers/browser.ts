/**
 * Browser tests: Debian's Chromium (/usr/bin/chromium, installed by .ci/run),
 * driven by Playwright through @japa/browser-client. No browser is ever
 * downloaded. `CHROMIUM_PATH` overrides the executable.
 */
import type { Browser, BrowserContext, Page } from 'playwright'

/** The Chromium executable the browser suite drives. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Launches headless Chromium with flags that keep it offline and quiet. */
export async function launchChromium(
  options: { headless?: boolean; slowMo?: number } = {}
): Promise<Browser> {
  const { chromium } = await import('playwright')
  return chromium.launch({
    ...options,
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

/** Base URL of the application under test (HOST and PORT set by bin/test.ts). */
export function baseUrl(): string {
  return `http://${process.env.HOST}:${process.env.PORT}`
}

/**
 * Collects a page's uncaught exceptions and console errors (hydration errors
 * included) into the returned array. Chromium's "Failed to load resource"
 * lines for requests a journey expects to fail (a refused sign-in, a 404) are
 * left out unless `strict` is set.
 */
export function collectErrors(page: Page, { strict = false }: { strict?: boolean } = {}): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    if (isDevServerSocketError(message.text())) return
    if (strict || !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text())
    }
  })
  page.on('pageerror', (error) => {
    if (!isDevServerSocketError(error.message)) errors.push(error.message)
  })
  return errors
}

/**
 * Whether a page error is only the dev server's socket failing to connect
 * (the socket of Vite's page client, which the tests never use): not the
 * app's error. bin/test.ts gives each run a free port for it, but the port is
 * free only when chosen: a test run starting beside it on the machine can
 * take it before this run's dev server listens ("WebSocket server error:
 * Port ... is already in use"), and the page then reaches that run's server,
 * which answers the handshake with its home page (200) or refuses the token.
 * A socket that never opened never reloads the page.
 */
function isDevServerSocketError(text: string): boolean {
  return (
    text.startsWith('[vite] failed to connect to websocket') ||
    text === 'WebSocket closed without opened.' ||
    text.startsWith(
      `WebSocket connection to 'ws://${process.env.HOST}:${process.env.VITE_HMR_PORT}/`
    )
  )
}

/**
 * The open antd modal whose title is exactly `title`. Found by its title
 * element rather than the accessible name: under NODE_ENV=test antd gives
 * every generated id the same value ("test-id"), so a dialog's aria name can
 * come from another element of the page.
 */
export function dialogByTitle(page: Page, title: string) {
  return page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-modal-title').getByText(title, { exact: true }) })
}

/**
 * Bound of a full page reload in the browser tests (120 s). Under the dev
 * server a reload transforms modules again; on a loaded CI machine that took
 * over Playwright's 30 s default once, so waits for a reload use this bound.
 */
export const RELOAD_TIMEOUT_MS = 120_000

/** Runs `action` (a click or key press that reloads the page) and resolves once the new page fired `load`. */
export async function reloadedBy(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('load', { timeout: RELOAD_TIMEOUT_MS }), action()])
}

export interface SignedInPageOptions {
  /** Viewport width (1440 by default); below `phoneBelow` the context is a touch phone. */
  width?: number
  /** Widths under this one get `isMobile` and `hasTouch` (none by default). */
  phoneBelow?: number
  height?: number
  dark?: boolean
  /** Bound of the first load and hydration (Playwright's 30 s by default). */
  timeout?: number
}

/**
 * A fresh browser context signed in with `cookie` (an `access_token=...`
 * Cookie header), its page loaded at `path` and hydrated, and the console
 * errors it collects.
 */
export async function openSignedIn(
  browser: Browser,
  cookie: string,
  path: string,
  options: SignedInPageOptions = {}
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const width = options.width ?? 1440
  const phone = width < (options.phoneBelow ?? 0)
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: options.height ?? 900 },
    isMobile: phone,
    hasTouch: phone,
    colorScheme: options.dark ? 'dark' : 'light',
  })
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
  ])
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto(path, { timeout: options.timeout })
  await page.waitForSelector('html[data-hydrated]', { timeout: options.timeout })
  return { context, page, errors }
}
