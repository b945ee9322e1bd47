import { configApp } from '@adonisjs/eslint-config'
import { react } from '@adonisjs/eslint-config/react'

export default configApp(...react, {
  name: 'Tern: the one runtime module of types/api the pages share with the server',
  files: ['inertia/**/*.{ts,tsx}'],
  rules: {
    '@adonisjs/no-backend-import-in-frontend': ['error', { allowed: ['#api/expiration'] }],
  },
})
