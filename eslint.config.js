import { configApp } from '@adonisjs/eslint-config'
import { react } from '@adonisjs/eslint-config/react'

export default configApp(
  ...react,
  {
    name: 'Tern: tests',
    files: ['tests/**', 'plugins/*/tests/**'],
    rules: {
      // Tests read an answer in one expression, e.g. `(await response.json()).id`.
      '@unicorn/no-await-expression-member': 'off',
    },
  },
  {
    name: 'Tern: code the pages share with the server',
    files: ['inertia/**/*.{ts,tsx}'],
    rules: {
      // start/locales.ts is plain data (no imports) the server and the pages both read, by design
      // (docs/architecture.md, "Interface text"). The API types (#api/*) are imported with
      // `import type` only, which the rule already allows.
      '@adonisjs/no-backend-import-in-frontend': ['error', { allowed: ['+(../)start/locales'] }],
    },
  }
)
