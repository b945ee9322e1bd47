/**
 * Refine's data provider over Tern's JSON API, a factory over one HTTP
 * client (`adminHttp`: same-origin cookies, session refresh). Resource name
 * = API path segment (`users` → `/api/users`). List parameters map to
 * `page`, `perPage`, `sort`, `order`, `filter[field][op]` (see
 * `~/admin/lib/query`), and the total comes from the paginator's meta, or
 * the length of a plain array.
 *
 * Failures are the client's `ApiError` (it has `message` and `statusCode`,
 * what Refine's `HttpError` needs), so pages can show the server's message.
 */
import type { BaseRecord, DataProvider } from '@refinedev/core'
import { adminHttp, type AdminHttp } from '~/admin/lib/http'
import { listQuery, listResult, type ListParams } from '~/admin/lib/query'

/** Resource `meta` the data provider reads. */
export interface AdminResourceMeta {
  /** The list's API path when it is not the resource name (`shares/all`). */
  listPath?: string
  /** The API has no `GET /<resource>/:id`: `getOne` finds the record in the list. */
  oneFromList?: boolean
}

function segment(id: string | number) {
  return encodeURIComponent(String(id))
}

/** Creates the data provider for the API at `apiUrl` (default `/api`). */
export function createDataProvider(http: AdminHttp = adminHttp, apiUrl = '/api'): DataProvider {
  const listUrl = (resource: string, meta?: object) =>
    `${apiUrl}/${(meta as AdminResourceMeta | undefined)?.listPath ?? resource}`

  const provider: DataProvider = {
    getApiUrl: () => apiUrl,

    async getList({ resource, pagination, sorters, filters, meta }) {
      const body = await http.get(
        `${listUrl(resource, meta)}${listQuery({ pagination, sorters, filters } as ListParams)}`
      )
      const { data, total } = listResult<any>(body)
      return { data, total }
    },

    async getOne({ resource, id, meta }) {
      if ((meta as AdminResourceMeta | undefined)?.oneFromList) {
        const { data } = listResult<BaseRecord>(await http.get(listUrl(resource, meta)))
        const record = data.find((item) => String(item.id) === String(id))
        if (!record) throw Object.assign(new Error('Not Found'), { statusCode: 404 })
        return { data: record as any }
      }
      return { data: await http.get<any>(`${apiUrl}/${resource}/${segment(id)}`) }
    },

    async getMany({ resource, ids, meta }) {
      const { data } = listResult<BaseRecord>(await http.get(listUrl(resource, meta)))
      const wanted = new Set(ids.map(String))
      return { data: data.filter((item) => wanted.has(String(item.id))) as any[] }
    },

    async create({ resource, variables }) {
      return { data: await http.post<any>(`${apiUrl}/${resource}`, variables) }
    },

    async update({ resource, id, variables }) {
      return { data: await http.patch<any>(`${apiUrl}/${resource}/${segment(id)}`, variables) }
    },

    async deleteOne({ resource, id }) {
      const data = await http.delete<any>(`${apiUrl}/${resource}/${segment(id)}`)
      return { data: data ?? { id } }
    },

    async custom({ url, method, payload, query }) {
      const search = query
        ? `?${new URLSearchParams(query as Record<string, string>).toString()}`
        : ''
      const data = await http.request<any>(method.toUpperCase(), `${url}${search}`, payload)
      return { data }
    },
  }
  return provider
}
