import { test } from '@japa/runner'

test.group('Health | endpoint', () => {
  test('answers 200 OK when the database answers', async ({ client }) => {
    const response = await client.get('/api/health')
    response.assertStatus(200)
    response.assertTextIncludes('OK')
  })

  test('unknown API routes answer JSON of the contract shape', async ({ client, assert }) => {
    const response = await client.get('/api/does-not-exist')
    response.assertStatus(404)
    assert.deepEqual(Object.keys(response.body()).sort(), ['error', 'message', 'statusCode'])
  })
})
