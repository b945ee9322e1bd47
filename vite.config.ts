import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import adonisjs from '@adonisjs/vite/client'

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    adonisjs({
      entryPoints: ['inertia/app.tsx', 'inertia/admin/main.tsx'],
      serverEntryPoints: ['inertia/ssr.tsx'],
      reload: ['resources/views/**/*.edge'],
    }),
  ],
  resolve: {
    alias: {
      '~/': `${import.meta.dirname}/inertia/`,
      /** API object types shared with the server's transformers (types/api). */
      '#api/': `${import.meta.dirname}/types/api/`,
    },
  },
  /**
   * Crawl every page (and the admin panel) at start so all dependencies are
   * pre-bundled before the first request: otherwise a fresh cache discovers
   * them lazily and reloads the page mid-test.
   */
  optimizeDeps: {
    entries: ['inertia/app.tsx', 'inertia/pages/**/*.tsx', 'inertia/admin/**/*.tsx'],
  },
  /**
   * The server-rendering bundle carries React, Inertia, Ant Design and every
   * other browser package itself, so a production install (and the container
   * image) needs none of them: they are devDependencies. Only for the build:
   * the development server loads them from node_modules as they are.
   */
  ssr: { noExternal: command === 'build' ? true : undefined },
  server: {
    /** Test runs (possibly several at once) need no hot reload socket. */
    hmr: process.env.NODE_ENV === 'test' ? false : undefined,
    watch: { ignored: ['**/data/**', '**/build/**', '**/tmp/**'] },
  },
}))
