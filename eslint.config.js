import { readdirSync } from 'node:fs'
import { configApp } from '@adonisjs/eslint-config'
import { react } from '@adonisjs/eslint-config/react'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

/*
|--------------------------------------------------------------------------
| Layers: what may import what
|--------------------------------------------------------------------------
|
| The rule is written in docs/architecture.md ("What may import what");
| this block enforces it, and tests/unit/lint/layers.spec.ts proves that
| each kind of violation is reported. Change both together.
|
| Imports are resolved like Node and TypeScript do (package.json "imports"
| for `#services/*`, `~/*` of inertia/tsconfig.json), so `#services/x`,
| `../services/x` and `import type` are all checked alike.
*/
const root = import.meta.dirname
const APP_EVERYTHING_BUT = (...allowed) =>
  [
    'controllers',
    'middleware',
    'auth',
    'http',
    'services',
    'models',
    'transformers',
    'validators',
    'policies',
    'abilities',
    'exceptions',
    'extensions',
  ]
    .filter((dir) => !allowed.includes(dir))
    .map((dir) => `app/${dir}`)

/** What server code (app/, plugins) never imports: tests, tooling, browser code. */
const NOT_PRODUCT = ['tests', 'providers', 'commands', 'database', 'bin', 'scripts', 'inertia']

/**
 * start/ is the top layer, except its plain modules that everything may
 * read: the environment, the locales, the cluster's worker count and the
 * start-failure message.
 */
const START_EXCEPT_LEAVES = (message) => ({
  from: 'start',
  except: ['./env.ts', './locales.ts', './cluster.ts', './start_failure.ts'],
  message,
})

const layerZones = [
  // app/ never reaches up into start/ (routes, kernel) or out of product code.
  { target: 'app', ...START_EXCEPT_LEAVES('app/ never imports the routes or the kernel.') },
  {
    target: 'app',
    from: [...NOT_PRODUCT, 'plugins'],
    message: 'app/ never imports tests, providers, commands, plugins or browser code.',
  },
  // Middleware sits beside the controllers and never imports them; what both
  // need from the request (cookies, headers) lives in app/http.
  {
    target: 'app/middleware',
    from: 'app/controllers',
    message:
      'Middleware never imports controllers: move the helper both use to app/http (docs/architecture.md).',
  },
  {
    target: 'app/http',
    from: ['app/controllers', 'app/middleware', 'app/auth'],
    message: 'app/http (request helpers) never imports controllers, middleware or the auth guard.',
  },
  // The auth guard sits beside the middleware: it reads the request and calls services.
  {
    target: 'app/auth',
    from: ['app/controllers', 'app/middleware', 'app/transformers'],
    message: 'The auth guard (app/auth) never imports controllers, middleware or transformers.',
  },
  // Services: plain values in, models or plain data out.
  {
    target: 'app/services',
    from: [
      'app/controllers',
      'app/middleware',
      'app/auth',
      'app/http',
      'app/transformers',
      'app/policies',
      'app/abilities',
    ],
    message:
      'A service never imports controllers, middleware, the auth guard, app/http, transformers or policies: the caller passes plain values (docs/architecture.md).',
  },
  // Models are the bottom layer (besides the extension points).
  {
    target: 'app/models',
    from: APP_EVERYTHING_BUT('models', 'extensions', 'exceptions'),
    message: 'A model imports only models and #extensions/* (docs/architecture.md).',
  },
  // Transformers shape data; validators check it.
  {
    target: 'app/transformers',
    from: ['app/controllers', 'app/middleware', 'app/http', 'app/policies', 'app/validators'],
    message:
      'A transformer never imports controllers, middleware, app/http, policies or validators.',
  },
  {
    target: 'app/validators',
    from: [
      'app/controllers',
      'app/middleware',
      'app/http',
      'app/transformers',
      'app/policies',
      'app/models',
    ],
    message:
      'A validator never imports controllers, middleware, app/http, transformers, policies or models.',
  },
  {
    target: ['app/policies', 'app/abilities'],
    from: ['app/controllers', 'app/middleware', 'app/transformers'],
    message: 'A policy never imports controllers, middleware or transformers.',
  },
  // Exceptions are leaves, except the HTTP error handler (beside the middleware).
  {
    target: 'app/exceptions/!(handler).ts',
    from: APP_EVERYTHING_BUT('exceptions', 'extensions'),
    message: 'An exception imports only exceptions and #extensions/*.',
  },
  // The extension points are the plugin SDK: they stand on their own.
  {
    target: 'app/extensions',
    from: APP_EVERYTHING_BUT('extensions'),
    message: 'app/extensions is what plugins see: it imports nothing else of app/.',
  },
  // API types are shared with the browser.
  {
    target: 'types/api',
    from: ['app', 'start', 'config', 'providers', 'plugins', 'inertia', 'tests', 'database'],
    message: 'types/api imports nothing outside types/api.',
  },
  // Browser code: inertia/, types/api and start/locales.ts only.
  {
    target: ['inertia', 'plugins/*/admin/**'],
    from: ['app', 'config', 'providers', 'tests', 'database', 'commands', 'resources'],
    message: 'Browser code imports only inertia/, types/api and start/locales.ts.',
  },
  {
    target: ['inertia', 'plugins/*/admin/**'],
    from: ['plugins/*/*.ts', 'plugins/*/!(admin)/**'],
    message: "Browser code never imports a plugin's server code.",
  },
  {
    target: ['inertia', 'plugins/*/admin/**'],
    ...START_EXCEPT_LEAVES('Browser code imports only inertia/, types/api and start/locales.ts.'),
    except: ['./locales.ts'],
  },
]

// A plugin (outside its tests and its admin pages) reaches core only
// through #extensions/* and #api/*, and another plugin only through its index.ts.
const plugins = readdirSync(`${root}/plugins`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
/** A plugin's server code: all but its tests and its admin pages (browser code). */
const pluginCode = (name) => [`plugins/${name}/*.ts`, `plugins/${name}/!(admin|tests)/**`]
const pluginZones = plugins.flatMap((name) => [
  {
    target: pluginCode(name),
    from: [
      ...APP_EVERYTHING_BUT('extensions'),
      'start',
      'config',
      'types/compression.d.ts',
      'types/pngjs.d.ts',
      ...NOT_PRODUCT,
    ],
    message: 'A plugin reaches core only through #extensions/* and #api/* (plugins/README.md).',
  },
  ...plugins
    .filter((other) => other !== name)
    .map((other) => ({
      target: pluginCode(name),
      from: `plugins/${other}`,
      except: ['./index.ts'],
      message: 'A plugin uses another plugin only through its index.ts.',
    })),
])

const layers = [
  {
    name: 'Tern layers (docs/architecture.md, "What may import what")',
    files: [
      'app/**/*.ts',
      'start/**/*.ts',
      'types/api/**/*.ts',
      'inertia/**/*.{ts,tsx}',
      'plugins/**/*.{ts,tsx}',
    ],
    ignores: ['plugins/*/tests/**'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript files are modules too (import-x reads them for no-cycle).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${root}/tsconfig.json`, `${root}/inertia/tsconfig.json`],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: [...layerZones, ...pluginZones] },
      ],
    },
  },
  {
    name: 'Tern layers: a service never sees the request',
    files: ['app/services/**/*.ts', 'app/models/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['@adonisjs/core/http', '@adonisjs/http-server'].map((name) => ({
            name,
            importNames: ['HttpContext'],
            message: 'Services and models never see the request: the caller passes plain values.',
          })),
        },
      ],
    },
  },
  {
    name: 'Tern layers: API types import only API types',
    files: ['types/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./)', message: 'types/api imports nothing outside types/api.' },
          ],
        },
      ],
    },
  },
  {
    name: 'Tern layers: no import cycles between services',
    files: ['app/services/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
]
// ------------------------------------------------------------------------

const tests = {
  name: 'Tern: tests',
  files: ['tests/**', 'plugins/*/tests/**'],
  rules: {
    // Tests read an answer in one expression, e.g. `(await response.json()).id`.
    '@unicorn/no-await-expression-member': 'off',
  },
}

const sharedWithPages = {
  name: 'Tern: code the pages share with the server',
  files: ['inertia/**/*.{ts,tsx}'],
  rules: {
    // start/locales.ts is plain data (no imports) the server and the pages both read, by design
    // (docs/architecture.md, "Interface text"), and #api/expiration is the one runtime module of
    // types/api (the expiry format, parsed alike on both sides). The other API types (#api/*)
    // are imported with `import type` only, which the rule already allows.
    '@adonisjs/no-backend-import-in-frontend': [
      'error',
      { allowed: ['+(../)start/locales', '#api/expiration'] },
    ],
  },
}

export default configApp(...react, tests, sharedWithPages, ...layers)
