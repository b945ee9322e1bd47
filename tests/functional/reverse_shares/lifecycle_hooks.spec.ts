/**
 * The share lifecycle's hooks seen from a plugin: handlers added to the
 * core's runner (`#extensions/hooks/main`), as a plugin's provider would,
 * receive the share of real HTTP calls, may change the answer or refuse;
 * the reverse shares use the same hooks.
 */
import { test } from '@japa/runner'
import {
  HookRefusedException,
  hooks,
  type FilterHandler,
  type FilterHookName,
} from '#extensions/hooks/main'
import Share from '#models/share'
import {
  api,
  cleanupShareTests,
  createShare,
  newShareId,
  shareToken,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import {
  createReverseShare,
  startReverseShareUpload,
  uploadThroughReverseShare,
} from '#tests/helpers/reverse_shares'

/** Handlers added by a test, removed after it. */
const added: Array<[FilterHookName, FilterHandler<any>]> = []
const unsubscribers: Array<() => void> = []

function addFilter<Name extends FilterHookName>(name: Name, handler: FilterHandler<Name>) {
  hooks.addFilter(name, handler)
  added.push([name, handler])
}

/** A signed-in user's share with one uploaded file, not completed. */
async function openShare() {
  const owner = await shareUser()
  const id = newShareId('hooks')
  await createShare(owner.cookie, { id, recipients: [] })
  await uploadFile(id, 'a.txt', 'abc', owner.cookie)
  return { id, cookie: owner.cookie, owner }
}

test.group('Share lifecycle hooks | a plugin', (group) => {
  group.each.teardown(async () => {
    for (const [name, handler] of added.splice(0)) hooks.removeFilter(name, handler)
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe()
    await cleanupShareTests()
  })

  test('share:before_authorize_create receives the token and the reverse share the core resolved', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie)
    const seen: unknown[] = []
    addFilter('share:before_authorize_create', (payload) => {
      seen.push({
        token: payload.reverseShareToken,
        reverseShareId: payload.reverseShare?.id ?? null,
      })
    })
    const upload = await startReverseShareUpload(token)
    const share = await Share.findOrFail(upload.shareId)
    assert.deepEqual(seen, [{ token, reverseShareId: share.reverseShareId }])
    assert.isNotNull(share.reverseShareId)
  })

  test('share:before_complete and share:completed receive the share; a filter adds reply keys', async ({
    assert,
  }) => {
    const { id, cookie, owner } = await openShare()
    const filtered: unknown[] = []
    const completedEvents: unknown[] = []
    addFilter('share:before_complete', (payload) => {
      filtered.push({ ...payload, reply: { ...payload.reply } })
      return { ...payload, reply: { ...payload.reply, scanned: true } }
    })
    unsubscribers.push(hooks.on('share:completed', (payload) => void completedEvents.push(payload)))

    const completed = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(completed.status, 202)
    assert.isTrue(completed.json.scanned)
    assert.deepEqual(filtered, [
      {
        shareId: id,
        creatorId: owner.user.id,
        reverseShareId: null,
        firstCompletion: true,
        reply: {},
      },
    ])
    assert.deepEqual(completedEvents, [
      { shareId: id, creatorId: owner.user.id, fileCount: 1, size: 3 },
    ])

    await api('DELETE', `/api/shares/${id}/complete`, { cookie })
    await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.isFalse((filtered[1] as { firstCompletion: boolean }).firstCompletion)
  })

  test('a refused completion answers the refusal and leaves the share open for a later completion', async ({
    assert,
  }) => {
    const { id, cookie } = await openShare()
    const refuse = () => {
      throw new HookRefusedException('Still scanning', { status: 409, errorKey: 'scan_pending' })
    }
    addFilter('share:before_complete', refuse)
    const refused = await api('POST', `/api/shares/${id}/complete`, { cookie })
    assert.equal(refused.status, 409)
    assert.deepEqual(refused.json, {
      statusCode: 409,
      message: 'Still scanning',
      error: 'scan_pending',
    })
    const share = await Share.findOrFail(id)
    assert.isFalse(share.completed)
    assert.isNull(share.completedAt)

    hooks.removeFilter('share:before_complete', refuse)
    const seen: boolean[] = []
    addFilter('share:before_complete', (payload) => void seen.push(payload.firstCompletion))
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie })).status, 202)
    assert.deepEqual(seen, [true], 'the retry is still the first completion')
  })

  test('share:before_upload may lower the size cap (413 past it)', async ({ assert }) => {
    const { id, cookie } = await openShare()
    addFilter('share:before_upload', (payload) => ({ ...payload, maxShareSize: 5 }))
    const params = new URLSearchParams({ name: 'b.txt', chunkIndex: '0', totalChunks: '1' })
    const tooBig = await api('POST', `/api/shares/${id}/files?${params}`, {
      body: 'abcdef',
      cookie,
    })
    assert.equal(tooBig.status, 413)
    assert.deepEqual(tooBig.json, { statusCode: 413, message: 'Max share size exceeded' })
    const fits = await api('POST', `/api/shares/${id}/files?${params}`, { body: 'ab', cookie })
    assert.equal(fits.status, 201)
  })

  test("share:before_upload sees the reverse share's cap after the core's handler", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '1000' })
    const caps: Array<number | null> = []
    addFilter('share:before_upload', (payload) => void caps.push(payload.maxShareSize))
    await uploadThroughReverseShare(token, { 'a.txt': 'a' })
    assert.deepEqual(caps, [1000])
  })

  test('share:before_access may make a share private (403 private_share)', async ({ assert }) => {
    const { id, cookie } = await openShare()
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie })).status, 202)
    const seen: unknown[] = []
    addFilter('share:before_access', (payload) => {
      seen.push({ shareId: payload.shareId, userId: payload.userId })
      return { ...payload, private: true }
    })
    const visitor = (await shareToken(id)).response
    assert.equal(visitor.status, 403)
    assert.equal(visitor.json.error, 'private_share')
    assert.deepEqual(seen, [{ shareId: id, userId: null }])
  })
})
