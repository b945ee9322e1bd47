import { test } from '@japa/runner'
import { listQuery, listResult } from '../../../inertia/admin/lib/query.js'

test.group('Admin | list query mapping', () => {
  test('nothing to map gives no query string', ({ assert }) => {
    assert.equal(listQuery({}), '')
    assert.equal(listQuery({ pagination: { mode: 'client', currentPage: 3, pageSize: 20 } }), '')
    assert.equal(listQuery({ pagination: { mode: 'off' } }), '')
  })

  test('server pagination maps to page and perPage (defaults 1 and 10)', ({ assert }) => {
    assert.equal(
      listQuery({ pagination: { mode: 'server', currentPage: 3, pageSize: 25 } }),
      '?page=3&perPage=25'
    )
    assert.equal(listQuery({ pagination: {} }), '?page=1&perPage=10')
  })

  test('the first sorter maps to sort and order', ({ assert }) => {
    assert.equal(
      listQuery({
        sorters: [
          { field: 'createdAt', order: 'desc' },
          { field: 'name', order: 'asc' },
        ],
      }),
      '?sort=createdAt&order=desc'
    )
  })

  test('filters map to filter[field][op], arrays repeated, empty values and or/and groups left out', ({
    assert,
  }) => {
    const query = listQuery({
      filters: [
        { field: 'username', operator: 'contains', value: 'ad min' },
        { field: 'id', operator: 'in', value: ['a', 'b'] },
        { field: 'email', operator: 'eq', value: '' },
        { field: 'isAdmin', operator: 'eq', value: false },
        { operator: 'or', value: [{ field: 'x', operator: 'eq', value: 1 }] },
      ],
    })
    const params = new URLSearchParams(query.slice(1))
    assert.deepEqual(
      [...params.entries()],
      [
        ['filter[username][contains]', 'ad min'],
        ['filter[id][in]', 'a'],
        ['filter[id][in]', 'b'],
        ['filter[isAdmin][eq]', 'false'],
      ]
    )
  })

  test('pagination, sorter and filters together', ({ assert }) => {
    assert.equal(
      listQuery({
        pagination: { currentPage: 2, pageSize: 5, mode: 'server' },
        sorters: [{ field: 'views', order: 'asc' }],
        filters: [{ field: 'name', operator: 'contains', value: 'x' }],
      }),
      '?page=2&perPage=5&sort=views&order=asc&filter%5Bname%5D%5Bcontains%5D=x'
    )
  })
})

test.group('Admin | list answers', () => {
  test('a plain array is the whole list', ({ assert }) => {
    assert.deepEqual(listResult([{ id: 1 }, { id: 2 }]), { data: [{ id: 1 }, { id: 2 }], total: 2 })
  })

  test('a Lucid paginator gives its data and meta.total', ({ assert }) => {
    assert.deepEqual(
      listResult({ meta: { total: 42, perPage: 2 }, data: [{ id: 1 }, { id: 2 }] }),
      {
        data: [{ id: 1 }, { id: 2 }],
        total: 42,
      }
    )
    assert.deepEqual(listResult({ meta: { total: '7' }, data: [] }), { data: [], total: 7 })
    assert.deepEqual(listResult({ data: [{ id: 1 }] }), { data: [{ id: 1 }], total: 1 })
  })

  test('anything else is an empty list', ({ assert }) => {
    for (const body of [undefined, null, 'text', { items: [] }, 3]) {
      assert.deepEqual(listResult(body), { data: [], total: 0 })
    }
  })
})
