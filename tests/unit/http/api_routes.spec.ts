import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { API_ROUTES_FILE, apiRoutesSource } from '../../../commands/api_routes.js'
import { apiUrl } from '../../../inertia/lib/api_url.js'

test.group('API routes of the browser code', () => {
  test('the committed table is the one the routes generate (run node ace tern:api-routes)', async ({
    assert,
  }) => {
    router.commit()
    const routes = Object.values(router.toJSON()).flat()
    const committed = await readFile(app.makePath(API_ROUTES_FILE), 'utf8')
    assert.equal(committed, apiRoutesSource(routes))
  })

  test('apiUrl fills the parameters in, URL-encoded, as the hand-written paths did', ({
    assert,
  }) => {
    assert.equal(apiUrl('users.me.show'), '/api/users/me')
    assert.equal(apiUrl('shares.show', { id: 'a b' }), '/api/shares/a%20b')
    assert.equal(
      apiUrl('shares.files.download', { id: 'x/y', fileId: 'f?1' }),
      '/api/shares/x%2Fy/files/f%3F1'
    )
    assert.equal(
      apiUrl('auth.requestPasswordReset', { email: 'a+b@example.com' }),
      `/api/auth/resetPassword/${encodeURIComponent('a+b@example.com')}`
    )
    assert.equal(apiUrl('configs.admin.show', { category: 'smtp' }), '/api/configs/admin/smtp')
  })
})
