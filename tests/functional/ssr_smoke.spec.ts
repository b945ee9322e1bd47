import { test } from '@japa/runner'

test.group('Pages | server rendering', () => {
  test('the home page is server-rendered HTML', async ({ client, assert }) => {
    const response = await client.get('/')
    response.assertStatus(200)
    assert.include(response.text(), '<h1>Tern</h1>')
  })

  test('an unknown page answers the 404 page', async ({ client, assert }) => {
    const response = await client.get('/no/such/page')
    response.assertStatus(404)
    assert.include(response.text(), 'Oops this page doesn')
  })
})
