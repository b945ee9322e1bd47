import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { Exception } from '@adonisjs/core/exceptions'
import HttpExceptionHandler from '#exceptions/handler'
import { html } from '#tests/helpers/pages'

test.group('Pages | 404 page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an unknown page answers 404 with the not-found page and a button home', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/no/such/page')
    response.assertStatus(404)
    const page = html(response.text())
    assert.include(page, 'data-server-rendered="true"')
    assert.match(page, /<h1 class="tern-result-title">Oops this page doesn't exist.<\/h1>/)
    assert.match(
      page,
      /<a href="\/"[^>]*class="ant-btn[^"]*ant-btn-primary[^"]*"[^>]*><span>Bring me back home<\/span><\/a>/
    )
    assert.include(page, '"component":"errors\\/not_found"')
    assert.include(page, '<span class="tern-brand-name">Tern</span>')
  })

  test('the 404 page speaks the visitor language', async ({ client, assert }) => {
    const response = await client
      .get('/no/such/page')
      .header('Cookie', 'language=de-DE; color_scheme=dark')
    response.assertStatus(404)
    const page = html(response.text())
    assert.include(page, '<html lang="de-DE"')
    assert.include(page, 'data-theme="dark"')
    assert.include(page, 'Hoppla, diese Seite existiert nicht.')
    assert.include(page, 'Zurück zur Startseite')
  })

  test('an Inertia visit to an unknown page gets the not-found page object', async ({
    client,
    assert,
  }) => {
    const first = await client.get('/')
    const version = /"version":"([^"]*)"/.exec(first.text())?.[1] ?? ''
    const response = await client
      .get('/no/such/page')
      .header('X-Inertia', 'true')
      .header('X-Inertia-Version', version)
    response.assertStatus(404)
    response.assertHeader('x-inertia', 'true')
    assert.equal(response.body().component, 'errors/not_found')
    assert.equal(response.body().props.status, 404)
  })

  test('an unknown /api route answers JSON, not a page', async ({ client, assert }) => {
    const response = await client.get('/api/no/such/route')
    response.assertStatus(404)
    assert.equal(response.body().statusCode, 404)
    assert.notInclude(response.text(), '<html')
  })
})

test.group('Pages | error page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a failing page request renders the generic error page with a back button', async ({
    assert,
  }) => {
    const ctx = await testUtils.createHttpContext()
    ctx.request.request.url = '/some/page'
    await new HttpExceptionHandler().handle(new Exception('boom', { status: 500 }), ctx)

    assert.equal(ctx.response.getStatus(), 500)
    const page = html(String(ctx.response.getBody()))
    assert.include(page, 'data-server-rendered="true"')
    assert.include(page, '"component":"errors\\/server_error"')
    assert.match(page, /<h1 class="tern-result-title">Something went wrong<\/h1>/)
    assert.include(page, 'An unknown error occurred')
    assert.include(page, 'Error 500')
    assert.match(page, /<button[^>]*class="ant-btn[^"]*"[^>]*>.*<span>Go back<\/span><\/button>/)
    assert.notInclude(page, 'boom')
  })

  test('a refused page request shows its status on the error page', async ({ assert }) => {
    const ctx = await testUtils.createHttpContext()
    ctx.request.request.url = '/account'
    await new HttpExceptionHandler().handle(new Exception('Forbidden', { status: 403 }), ctx)
    assert.equal(ctx.response.getStatus(), 403)
    assert.include(String(ctx.response.getBody()), 'Error 403')
  })
})
