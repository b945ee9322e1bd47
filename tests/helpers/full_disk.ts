/**
 * Full-disk tests (tests/functional/faults/full_disk.spec.ts): a small tmpfs
 * mounted for a test (root only, never skipped), filled to the last byte,
 * and plain HTTP calls to a Tern child.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { TernChild } from '#tests/helpers/tern_child'

/** Mounts a tmpfs of `size` (e.g. "16m") at `dir`; resolves to its unmount. */
export function mountTmpfs(dir: string, size: string): () => void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The full-disk tests mount a tmpfs and must run as root (they are not skipped).'
    )
  }
  mkdirSync(dir, { recursive: true })
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
  return () => execFileSync('umount', ['-l', dir])
}

/** Fills the file system of `dir` until a write of one byte fails with ENOSPC; resolves to the filler's path. */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler')
  const fd = openSync(path, 'w')
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const buffer = Buffer.alloc(size)
      try {
        for (;;) writeSync(fd, buffer)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      }
    }
  } finally {
    closeSync(fd)
  }
  return path
}

/** Gives the space back. */
export function freeDisk(filler: string) {
  rmSync(filler)
}

/** One request to the child: status, JSON (or text) body and the cookies it set (`name=value`). */
export async function call(
  child: TernChild,
  method: string,
  path: string,
  options: { json?: unknown; body?: Buffer; cookie?: string } = {}
) {
  const headers: Record<string, string> = {}
  if (options.cookie) headers.cookie = options.cookie
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  if (options.body) headers['content-type'] = 'application/octet-stream'
  const body =
    options.json !== undefined
      ? JSON.stringify(options.json)
      : options.body
        ? new Uint8Array(options.body)
        : undefined
  const response = await fetch(`${child.url}${path}`, { method, headers, body })
  const text = await response.text()
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0])
  return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text, cookies }
}
