/**
 * Loading a file for a preview in the browser: the first bytes of a text
 * file (a `Range` request, read no further than the limit), or a whole PDF
 * as a `blob:` URL (files are served with `Content-Security-Policy: sandbox`,
 * which browsers refuse to show in a frame; a blob of the bytes has no such
 * header and stays inert: it is displayed by the browser's PDF viewer).
 */
import { useEffect, useState } from 'react'

/** What a preview load is at. */
export type Loaded<T> = { status: 'loading' } | { status: 'error' } | { status: 'done'; value: T }

/** A text preview: the decoded text and whether the file goes on after it. */
export interface TextContent {
  text: string
  truncated: boolean
}

/** Reads at most `limit` bytes of `response`'s body, then stops the download. */
async function readLimited(
  response: Response,
  limit: number
): Promise<{ bytes: Uint8Array; more: boolean }> {
  const reader = response.body?.getReader()
  if (!reader) {
    const all = new Uint8Array(await response.arrayBuffer())
    return { bytes: all.slice(0, limit), more: all.length > limit }
  }
  const parts: Uint8Array[] = []
  let length = 0
  let more = false
  while (length < limit) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    length += value.length
  }
  if (length >= limit) {
    more = length > limit
    await reader.cancel().catch(() => undefined)
  }
  const bytes = new Uint8Array(Math.min(length, limit))
  let offset = 0
  for (const part of parts) {
    const slice = part.subarray(0, bytes.length - offset)
    bytes.set(slice, offset)
    offset += slice.length
    if (offset >= bytes.length) break
  }
  return { bytes, more }
}

/** The first `limit` bytes of the file at `url` as UTF-8 text; `size` tells whether it was cut. */
export function useFileText(url: string, size: number, limit: number): Loaded<TextContent> {
  const [state, setState] = useState<Loaded<TextContent>>({ status: 'loading' })
  useEffect(() => {
    let cancelled = false
    // eslint-disable-next-line react-hooks/set-state-in-effect -- another file shows "loading" again until it is read
    setState({ status: 'loading' })
    const headers: Record<string, string> = size > limit ? { Range: `bytes=0-${limit - 1}` } : {}
    fetch(url, { credentials: 'same-origin', headers })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status))
        const { bytes, more } = await readLimited(response, limit)
        const truncated = more || size > bytes.length
        // A cut file may end inside a character: `stream` leaves that partial character out.
        const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated })
        return { text, truncated }
      })
      .then((value) => !cancelled && setState({ status: 'done', value }))
      .catch(() => !cancelled && setState({ status: 'error' }))
    return () => {
      cancelled = true
    }
  }, [url, size, limit])
  return state
}

/**
 * The file at `url` as a `blob:` URL of type `type` (revoked when the preview
 * closes); `prepare` may change the page's copy of the bytes first (keep it
 * stable: a new function loads the file again).
 */
export function useBlobUrl(
  url: string,
  type: string,
  prepare?: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>
): Loaded<string> {
  const [state, setState] = useState<Loaded<string>>({ status: 'loading' })
  useEffect(() => {
    let cancelled = false
    let objectUrl: string | null = null
    // eslint-disable-next-line react-hooks/set-state-in-effect -- another file shows "loading" again until it is read
    setState({ status: 'loading' })
    fetch(url, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status))
        const bytes = new Uint8Array(await response.arrayBuffer())
        const blob = new Blob([prepare ? prepare(bytes) : bytes], { type })
        if (cancelled) return
        objectUrl = URL.createObjectURL(blob)
        setState({ status: 'done', value: objectUrl })
      })
      .catch(() => !cancelled && setState({ status: 'error' }))
    return () => {
      cancelled = true
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [url, type, prepare])
  return state
}
