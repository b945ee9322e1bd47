import env from '#start/env'
import { defineConfig } from '@adonisjs/core/http'

/**
 * The app key encrypts cookies and signs URLs. It comes from APP_KEY or is
 * generated once into DATA_DIR (see start/prepare.ts).
 */
export const appKey = env.get('APP_KEY')

/**
 * HTTP server settings.
 */
export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: true,
  trustProxy: () => true,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: false,
    sameSite: 'lax',
  },
})
