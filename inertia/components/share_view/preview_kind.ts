/**
 * Which preview a file gets, from its name (the API gives no MIME type; the
 * server derives `Content-Type` from the name the same way).
 */

/** The previews the share view offers; `none` shows "Preview not supported". */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'markdown' | 'text' | 'none'

const KINDS: Record<Exclude<PreviewKind, 'none'>, string[]> = {
  image: ['png', 'jpg', 'jpeg', 'jfif', 'gif', 'webp', 'avif', 'bmp', 'ico', 'svg'],
  video: ['mp4', 'm4v', 'webm', 'ogv', 'mov'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'opus', 'flac', 'm4a', 'aac', 'weba'],
  pdf: ['pdf'],
  markdown: ['md', 'markdown', 'mdown', 'mkd', 'mkdn'],
  text: [
    'txt',
    'text',
    'log',
    'csv',
    'tsv',
    'json',
    'jsonl',
    'xml',
    'yaml',
    'yml',
    'toml',
    'ini',
    'cfg',
    'conf',
    'env',
    'properties',
    'js',
    'mjs',
    'cjs',
    'ts',
    'tsx',
    'jsx',
    'css',
    'scss',
    'less',
    'html',
    'htm',
    'vue',
    'svelte',
    'py',
    'rb',
    'go',
    'rs',
    'java',
    'kt',
    'swift',
    'c',
    'h',
    'cc',
    'cpp',
    'hpp',
    'cs',
    'php',
    'pl',
    'lua',
    'r',
    'dart',
    'sh',
    'bash',
    'zsh',
    'fish',
    'ps1',
    'bat',
    'sql',
    'gradle',
    'tex',
    'srt',
    'vtt',
    'diff',
    'patch',
    'rst',
    'adoc',
    'gitignore',
    'dockerfile',
    'makefile',
  ],
}

/** File names without extension that are text (README, LICENSE, ...). */
const TEXT_NAMES = new Set([
  'readme',
  'license',
  'licence',
  'changelog',
  'authors',
  'makefile',
  'dockerfile',
  'notice',
])

const BY_EXTENSION = new Map<string, PreviewKind>(
  Object.entries(KINDS).flatMap(([kind, extensions]) =>
    extensions.map((ext) => [ext, kind as PreviewKind] as const)
  )
)

/** The preview of `fileName` ("notes.MD" is markdown, "clip.mp4" video, "data.bin" none). */
export function previewKind(fileName: string): PreviewKind {
  const name = fileName.toLowerCase()
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return textOrNone(name)
  return BY_EXTENSION.get(name.slice(dot + 1)) ?? 'none'
}

/** Names without extension (`README`) or dot files (`.gitignore`): text when known. */
function textOrNone(name: string): PreviewKind {
  const bare = name.replace(/^\./, '')
  return TEXT_NAMES.has(bare) || BY_EXTENSION.get(bare) === 'text' ? 'text' : 'none'
}

/** Bytes of a text or Markdown file shown at most (the rest is left out, with a note). */
export const TEXT_PREVIEW_LIMIT = 1024 * 1024

/** PDFs larger than this are not previewed (they are loaded whole into the page). */
export const PDF_PREVIEW_LIMIT = 50 * 1024 * 1024

/**
 * Whether the share view offers a Preview of a file: not for a file no
 * preview can show (a binary, a PDF too large to load into the page), which
 * gets its Download button only.
 */
export function canPreview(fileName: string, size: number): boolean {
  const kind = previewKind(fileName)
  return kind !== 'none' && !(kind === 'pdf' && size > PDF_PREVIEW_LIMIT)
}
