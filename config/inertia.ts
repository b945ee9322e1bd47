import { defineConfig } from '@adonisjs/inertia'

/**
 * Pages are rendered on the server (SSR) and hydrated in the browser.
 */
const inertiaConfig = defineConfig({
  rootView: 'inertia_layout',
  encryptHistory: false,
  ssr: {
    enabled: true,
    entrypoint: 'inertia/ssr.tsx',
  },
})

export default inertiaConfig
