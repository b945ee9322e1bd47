/**
 * A share never holds two files with the same name. The
 * first chunk of a new file named like a completed file of the share is
 * refused with 400 `file_name_taken`, whether the share is being created or
 * was reopened to be edited; the pages check their own lists before uploading.
 */
import { test } from '@japa/runner'
import ShareFile from '#models/share_file'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  sendChunk,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'

const TAKEN = {
  statusCode: 400,
  message: 'A file with this name is already in the share',
  error: 'file_name_taken',
}

test.group('Shares | duplicate file names', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('editing a share: a second file with the same name is refused with 400, other names are added', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'notes.txt': 'first', 'b.txt': 'b' },
    })
    assert.equal((await api('DELETE', `/api/shares/${share.id}/complete`, { cookie })).status, 200)

    const refused = await sendChunk(
      share.id,
      { name: 'notes.txt', chunkIndex: 0, totalChunks: 1 },
      'second',
      cookie
    )
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.json, TAKEN)
    // Names differ by case or by a folder are different files.
    await uploadFile(share.id, 'Notes.txt', 'other case', cookie)
    await uploadFile(share.id, 'old/notes.txt', 'in a folder', cookie)

    assert.equal((await api('POST', `/api/shares/${share.id}/complete`, { cookie })).status, 202)
    const files = await ShareFile.query().where('shareId', share.id)
    assert.deepEqual(files.map((file) => file.name).sort(), [
      'Notes.txt',
      'b.txt',
      'notes.txt',
      'old/notes.txt',
    ])
    assert.equal(
      files.find((file) => file.name === 'notes.txt')!.size,
      5,
      'the first notes.txt is untouched'
    )
  })

  test('creating a share: the same rule, and a retried first chunk with its key is not taken for a duplicate', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id })
    await uploadFile(id, 'a.txt', 'a', cookie)
    const again = await sendChunk(id, { name: 'a.txt', chunkIndex: 0, totalChunks: 1 }, 'a', cookie)
    assert.deepEqual(again.json, TAKEN)

    const params = new URLSearchParams({ name: 'keyed.txt', chunkIndex: '0', totalChunks: '1' })
    const send = () =>
      api('POST', `/api/shares/${id}/files?${params}`, {
        body: 'k',
        cookie,
        headers: { 'idempotency-key': 'keyed-file-1' },
      })
    const first = await send()
    const retried = await send()
    assert.equal(first.status, 201)
    assert.equal(retried.status, 201)
    assert.equal(retried.json.id, first.json.id)
    assert.lengthOf(await ShareFile.query().where('shareId', id).where('name', 'keyed.txt'), 1)
  })
})
