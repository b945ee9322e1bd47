/**
 * Pure mapping between Refine's list parameters and Tern's list API (no
 * browser or `~/` imports: unit-tested in tests/unit/admin/query.spec.ts).
 *
 * - pagination (server mode) → `page`, `perPage`;
 * - sorters → `sort`, `order` (the first sorter: the API sorts by one field);
 * - filters → `filter[field][op]=value` (arrays repeated);
 * - an answer is either an array (routes inherited from Pingvin answer the
 *   whole list) or a Lucid paginator `{ meta: { total }, data }`.
 */

/** The parts of Refine's `GetListParams` this mapping reads. */
export interface ListParams {
  pagination?: { currentPage?: number; pageSize?: number; mode?: 'client' | 'server' | 'off' }
  sorters?: { field: string; order: 'asc' | 'desc' }[]
  filters?: (
    | { field: string; operator: string; value: unknown }
    | { operator: 'or' | 'and'; value: unknown[] }
  )[]
}

/** The query string (with its `?`, or `""`) of a list request. */
export function listQuery(params: ListParams): string {
  const search = new URLSearchParams()
  const pagination = params.pagination
  if (pagination && (pagination.mode ?? 'server') === 'server') {
    search.set('page', String(pagination.currentPage ?? 1))
    search.set('perPage', String(pagination.pageSize ?? 10))
  }
  const sorter = params.sorters?.[0]
  if (sorter) {
    search.set('sort', sorter.field)
    search.set('order', sorter.order)
  }
  for (const filter of params.filters ?? []) {
    // Conditional (or/and) filters have no field: the API has no such filter.
    if (
      !('field' in filter) ||
      filter.value === undefined ||
      filter.value === null ||
      filter.value === ''
    )
      continue
    const name = `filter[${filter.field}][${filter.operator}]`
    const values = Array.isArray(filter.value) ? filter.value : [filter.value]
    for (const value of values) search.append(name, String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** A list answer as Refine wants it. */
export interface ListResult<T> {
  data: T[]
  total: number
}

/**
 * Reads a list answer: an array (total = its length) or a Lucid paginator
 * (`{ meta: { total }, data }`). Anything else is an empty list.
 */
export function listResult<T>(body: unknown): ListResult<T> {
  if (Array.isArray(body)) return { data: body as T[], total: body.length }
  if (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)) {
    const { data, meta } = body as { data: T[]; meta?: { total?: unknown } }
    const total = Number(meta?.total)
    return { data, total: Number.isFinite(total) ? total : data.length }
  }
  return { data: [], total: 0 }
}
