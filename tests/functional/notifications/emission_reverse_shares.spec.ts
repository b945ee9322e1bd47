/**
 * The reverse-share events reach the reverse share's owner when he routed
 * them: `reverse_share.used` when a visitor completes a share through his
 * link (besides Pingvin's own e-mail, which is unchanged), and
 * `reverse_share.expiring` once from the job; share events of an upload
 * through his link follow his routes too.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ReverseShare from '#models/reverse_share'
import ExpiryNoticeJob from '#services/jobs/expiry_notice_job'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'
import { cleanupShareTests, shareUser } from '#tests/helpers/shares'
import {
  delivered,
  resetRecording,
  routeOwn,
} from '#tests/functional/notifications/emission_support'

test.group('Notifications | reverse share events', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(async () => {
    await cleanupShareTests()
    await resetRecording()
  })

  test('reverse_share.used carries the reverse share and the new share; the owner also gets share.completed', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const other = await shareUser()
    await routeOwn(owner.cookie, ['reverse_share.used', 'share.completed'])
    const { token } = await createReverseShare(owner.cookie, { maxUseCount: 3 })
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    const { token: otherToken } = await createReverseShare(other.cookie)
    const upload = await completedReverseShareUpload(token, { 'a.txt': 'abc' })
    await completedReverseShareUpload(otherToken, { 'a.txt': 'abc' })

    const messages = await delivered()
    assert.sameMembers(
      messages.map((message) => message.event),
      ['reverse_share.used', 'share.completed']
    )
    const used = messages.find((message) => message.event === 'reverse_share.used')!
    assert.deepEqual(used.payload.reverseShare, {
      id: reverseShare.id,
      creatorId: owner.user.id,
      remainingUses: 2,
      expiresAt: null,
    })
    assert.include(used.payload.share, {
      id: upload.shareId,
      creatorId: null,
      reverseShareId: reverseShare.id,
    })
    assert.notProperty(used.payload.reverseShare, 'token')
    assert.notInclude(JSON.stringify(used.payload), token)
    assert.equal(used.recipient?.userId, owner.user.id)
    const completed = messages.find((message) => message.event === 'share.completed')!
    assert.include(completed.payload.share, { id: upload.shareId, fileCount: 1, size: 3 })
  })

  test('reverse_share.expiring is sent once, only for reverse shares expiring within a day', async ({
    assert,
  }) => {
    const owner = await shareUser()
    await routeOwn(owner.cookie, ['reverse_share.expiring'])
    const { token } = await createReverseShare(owner.cookie, { shareExpiration: '3-hours' })
    await createReverseShare(owner.cookie, { shareExpiration: '2-days' })
    const reverseShare = await ReverseShare.findByOrFail('token', token)
    const job = await app.container.make(ExpiryNoticeJob)

    assert.deepEqual((await job.run()).reverseShares, [reverseShare.id])
    assert.deepEqual((await job.run()).reverseShares, [])
    const messages = await delivered()
    assert.lengthOf(messages, 1)
    assert.equal(messages[0].event, 'reverse_share.expiring')
    assert.include(messages[0].payload.reverseShare, {
      id: reverseShare.id,
      creatorId: owner.user.id,
    })
    assert.isNotNull(messages[0].payload.reverseShare.expiresAt)
  })
})
