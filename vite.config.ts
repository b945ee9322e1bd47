import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import adonisjs from '@adonisjs/vite/client'

const LANG_DIR = join(import.meta.dirname, 'resources/lang')
/** English (start/locales.ts DEFAULT_LOCALE) fills the messages a catalogue lacks. */
const DEFAULT_LOCALE = 'en-US'
const CATALOGUES = 'virtual:tern-catalogues'

/**
 * The pages' translations as one module per locale and part (a
 * visitor downloads only its language, in one file): `virtual:tern-catalogues`
 * maps each locale (a folder of resources/lang, as start/locales.ts says) to loaders of its `app` part (every namespace but the
 * admin panel's) and its `admin` part (`admin.json`, `admin/**`), each a
 * flat catalogue (dotted keys, as AdonisJS i18n flattens
 * `resources/lang/<locale>/<namespace>.json`) with English filling the
 * missing messages. Written here, not a library: it is the few lines of
 * reading and flattening the server's own catalogue format.
 */
function catalogues(): Plugin {
  type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
  const flatten = (prefix: string, value: Json, into: Record<string, string>) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, nested] of Object.entries(value))
        flatten(prefix ? `${prefix}.${key}` : key, nested, into)
    } else if (typeof value === 'string') into[prefix] = value
  }
  const read = (locale: string, part: string, files: string[]) => {
    const messages: Record<string, string> = {}
    const base = join(LANG_DIR, locale)
    let entries: string[] = []
    try {
      entries = readdirSync(base, { recursive: true, encoding: 'utf8' }).filter((file) =>
        file.endsWith('.json')
      )
    } catch {}
    for (const entry of entries.sort()) {
      const namespace = entry
        .replace(/\.json$/, '')
        .split(/[\\/]/)
        .join('.')
      if ((namespace === 'admin' || namespace.startsWith('admin.')) !== (part === 'admin')) continue
      const file = join(base, entry)
      files.push(file)
      flatten(namespace, JSON.parse(readFileSync(file, 'utf8')) as Json, messages)
    }
    return messages
  }
  const PREFIX = `\0${CATALOGUES}/`
  return {
    name: 'tern-catalogues',
    resolveId(id) {
      if (id === CATALOGUES) return `\0${CATALOGUES}`
      if (id.startsWith(`${CATALOGUES}/`)) return `\0${id}`
    },
    load(id) {
      if (id === `\0${CATALOGUES}`) {
        const locales = readdirSync(LANG_DIR, { withFileTypes: true }).filter((entry) =>
          entry.isDirectory()
        )
        const entries = locales.map(
          ({ name: code }) =>
            `${JSON.stringify(code)}: { app: () => import(${JSON.stringify(`${CATALOGUES}/${code}/app`)}), ` +
            `admin: () => import(${JSON.stringify(`${CATALOGUES}/${code}/admin`)}) }`
        )
        return `export default {\n${entries.join(',\n')}\n}\n`
      }
      if (!id.startsWith(PREFIX)) return
      const [locale, part] = id.slice(PREFIX.length).split('/')
      const files: string[] = []
      const english = read(DEFAULT_LOCALE, part, files)
      const own = locale === DEFAULT_LOCALE ? {} : read(locale, part, files)
      for (const file of files) this.addWatchFile(file)
      return `export default ${JSON.stringify({ ...english, ...own })}\n`
    },
    configureServer(server) {
      // A changed catalogue file reloads the catalogue modules of the dev server.
      server.watcher.add(LANG_DIR)
      server.watcher.on('change', (file) => {
        if (relative(LANG_DIR, file).startsWith('..')) return
        for (const environment of Object.values(server.environments)) {
          for (const [id, module] of environment.moduleGraph.idToModuleMap) {
            if (id.startsWith(PREFIX)) environment.moduleGraph.invalidateModule(module)
          }
        }
      })
    },
  }
}

export default defineConfig(({ command }) => ({
  plugins: [
    catalogues(),
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
  environments: {
    client: {
      build: {
        rolldownOptions: {
          /**
           * React loads on every page of both entries and changes only with its
           * version: one chunk, cached across releases of Tern's own code,
           * instead of being spread over shared chunks. (A group for Inertia
           * also captured es-toolkit, which the admin panel uses, and so
           * brought Inertia to the panel.)
           */
          output: {
            codeSplitting: {
              groups: [
                { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
              ],
            },
          },
          /**
           * Ant Design's rc-* packages declare no `sideEffects` in their
           * package.json, and their modules' top-level `forwardRef` calls look
           * like side effects: a component that imports one export of a barrel
           * (antd's ContextIsolator, used by every overlay, imports
           * rc-field-form's FormProvider) would bring the whole package
           * (rc-field-form and async-validator: 25 KB brotli) to every page.
           * They have none (antd itself declares only its CSS): drop the
           * modules of theirs a page does not use.
           */
          treeshake: {
            moduleSideEffects: [
              {
                test: /[\\/]node_modules[\\/](rc-[^\\/]+|@rc-component[\\/][^\\/]+)[\\/]/,
                sideEffects: false,
              },
            ],
          },
        },
      },
    },
  },
  server: {
    /** Test runs (possibly several at once) need no hot reload. */
    hmr: process.env.NODE_ENV === 'test' ? false : undefined,
    watch: { ignored: ['**/data/**', '**/build/**', '**/builds/**', '**/tmp/**'] },
  },
}))
