/**
 * Which files the share view offers a Preview for: a
 * binary, or a PDF too large to load into the page, gets Download only.
 */
import { test } from '@japa/runner'
import {
  PDF_PREVIEW_LIMIT,
  canPreview,
  previewKind,
} from '../../../inertia/components/share_view/preview_kind.js'

test.group('Share view | preview kinds', () => {
  test('files a preview can show are offered one', ({ assert }) => {
    for (const name of [
      'photo.JPG',
      'clip.mp4',
      'song.mp3',
      'guide.pdf',
      'notes.MD',
      'notes.txt',
      'README',
      '.gitignore',
    ]) {
      assert.isTrue(canPreview(name, 1000), name)
    }
  })

  test('binaries and oversized PDFs are not', ({ assert }) => {
    for (const name of ['data.bin', 'setup.exe', 'archive.zip', 'noextension', 'disk.iso']) {
      assert.equal(previewKind(name), 'none', name)
      assert.isFalse(canPreview(name, 10), name)
    }
    assert.isTrue(canPreview('big.pdf', PDF_PREVIEW_LIMIT))
    assert.isFalse(canPreview('big.pdf', PDF_PREVIEW_LIMIT + 1))
    assert.isTrue(
      canPreview('big.txt', PDF_PREVIEW_LIMIT + 1),
      'text is previewed from its first bytes'
    )
  })
})
