/**
 * Browser tests: Debian's Chromium (/usr/bin/chromium, installed by .ci/run),
 * driven by Playwright through @japa/browser-client. No browser is ever
 * downloaded. `CHROMIUM_PATH` overrides the executable.
 */
import type { Browser } from 'playwright'

/** The Chromium executable the browser suite drives. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Launches headless Chromium with flags that keep it offline and quiet. */
export async function launchChromium(options: { headless?: boolean; slowMo?: number } = {}): Promise<Browser> {
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
