/**
 * Fault suite, uploads: a real Tern process is
 * killed with SIGKILL at each phase of an upload (first chunk, a middle chunk
 * stored but not recorded, assembling, assembled but not recorded, share
 * completion) on the local disk, S3 with staged chunks and S3 with multipart
 * parts (s3rver), then restarted; the client resumes and the downloaded bytes
 * must have the uploaded sha256. Processes are pipelined: the process that
 * resumes phase k is the one killed at phase k + 1 (the fault file arms
 * the next phase for other share ids), so 5 phases cost 6 starts.
 * Uploads nobody resumes are finished by the stalled-upload job (assembly
 * phases) or removed by the cleanup job (earlier phases), storage included.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import { stagedChunkKey, storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import type { FaultPoint } from '#services/files/fault_points'
import UploadFinalisation from '#services/files/upload_finalisation'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import {
  armFaultPoint,
  sha256,
  startCrashTern,
  until,
  type CrashTern,
} from '#tests/helpers/crash_tern'
import {
  chunk,
  downloadedSha,
  driveToFault,
  ok,
  resume,
  storedKeys,
  useVariant,
  type Upload,
} from '#tests/helpers/crash_uploads'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'
import {
  EVERY_DISK,
  S3_STAGED,
  cleanupShareTests,
  createShare,
  newShareId,
  shareUser,
  useS3Disk,
} from '#tests/helpers/shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'

const PHASES: FaultPoint[] = [
  'first-chunk',
  'chunk-stored',
  'assembling',
  'assembled',
  'completing',
]

let cookie: string
let s3: S3Server

test.group('Faults | kill -9 at each phase of an upload', (group) => {
  group.teardown(cleanCommittedData)
  let faultDir: string
  group.setup(async () => {
    s3 = await startS3Server({ bucket: 'tern-faults' })
    faultDir = await mkdtemp(join(tmpdir(), 'tern-faults-'))
    return async () => {
      await s3.close()
      await rm(faultDir, { recursive: true, force: true })
    }
  })
  group.each.teardown(() => cleanupShareTests())

  test('restart, resume and compare sha256 on every disk; jobs finish or remove what nobody resumes', async ({
    assert,
  }) => {
    cookie = (await shareUser()).cookie
    await useS3Disk(s3)
    const faultFile = join(faultDir, 'point')
    const uploads: Upload[] = []
    let tern: CrashTern | null = null
    for (const [step, phase] of [...PHASES, null].entries()) {
      await armFaultPoint(faultFile, phase, `f${step}-`)
      tern = await startCrashTern(faultFile)
      const previous = uploads.filter((upload) => upload.phase === PHASES[step - 1])
      // Before anything else (the child's own jobs start after 30 s): a file cut
      // short in assembly is not complete, so its share cannot be completed.
      for (const upload of previous.filter((u) => !u.abandoned && u.phase.startsWith('assembl'))) {
        const early = await tern.request('POST', `/api/shares/${upload.shareId}/complete`, {
          cookie,
        })
        assert.equal(
          early.status,
          400,
          `complete before the assembly finished (${upload.variant.label})`
        )
      }
      for (const variant of EVERY_DISK) {
        await useVariant(variant)
        for (const upload of previous.filter((u) => u.variant === variant && !u.abandoned)) {
          const dead = await UploadSession.query().where('shareId', upload.shareId)
          await resume(tern, upload)
          if (upload.phase !== 'first-chunk') continue
          // The file whose first chunk died must not block completion, nor stay in storage.
          const file = await ShareFile.findByOrFail('shareId', upload.shareId)
          assert.deepEqual(
            await storedKeys(upload),
            [file.storageKey],
            `first chunk on ${variant.label}`
          )
          const pending = await s3.pendingUploads()
          for (const session of dead) assert.notInclude(pending, session.multipartUploadId ?? '-')
        }
        if (!phase) continue
        for (const abandoned of phase === 'completing' ? [false] : [false, true]) {
          const shareId = newShareId(`f${step}-${abandoned ? 'a' : 'r'}`)
          await createShare(cookie, { id: shareId })
          const content = randomBytes(variant.chunkSize * 2 + 7)
          const upload: Upload = { cookie, phase, variant, shareId, content, abandoned }
          uploads.push(upload)
          await driveToFault(tern, upload)
        }
      }
      if (PHASES[step - 1]?.startsWith('assembl')) {
        assert.include(
          tern.process.output(),
          'taking over a stalled upload assembly',
          'the takeover is logged'
        )
      }
      if (phase) await tern.kill()
    }
    const survivor = tern!
    try {
      for (const upload of uploads.filter((u) => !u.abandoned)) {
        assert.equal(
          await downloadedSha(survivor, upload),
          `200 ${sha256(upload.content)}`,
          `${upload.phase} on ${upload.variant.label}`
        )
        const files = await ShareFile.query().where('shareId', upload.shareId)
        assert.lengthOf(
          files,
          1,
          `only the finished file is left (${upload.phase}, ${upload.variant.label})`
        )
      }
      // Assemblies nobody retried: the stalled-upload job finishes them.
      const stalled = uploads.filter((u) => u.abandoned && u.phase.startsWith('assembl'))
      await until(async () => {
        await (await app.container.make(UploadFinalisation)).resumeStalled()
        const done = await ShareFile.query()
          .whereIn(
            'id',
            stalled.map((u) => u.fileId!)
          )
          .where('completed', true)
        return done.length === stalled.length
      }, 'the stalled assemblies to be finished')
      for (const upload of stalled) {
        await ok(
          survivor.request('POST', `/api/shares/${upload.shareId}/complete`, { cookie }),
          'complete'
        )
        assert.equal(
          await downloadedSha(survivor, upload),
          `200 ${sha256(upload.content)}`,
          `job-finished ${upload.phase} on ${upload.variant.label}`
        )
      }
      // Uploads abandoned before their assembly: removed a day later, storage included.
      await (
        await app.container.make(CleanupJobs)
      ).orphanedUploads(DateTime.utc().plus({ days: 2 }))
      for (const upload of uploads.filter((u) => u.abandoned && !u.phase.startsWith('assembl'))) {
        assert.deepEqual(
          await storedKeys(upload),
          [],
          `storage left by ${upload.phase} on ${upload.variant.label}`
        )
        assert.lengthOf(await ShareFile.query().where('shareId', upload.shareId), 0)
      }
      assert.deepEqual(await s3.pendingUploads(), [], 'no multipart upload left open')
    } finally {
      await survivor.process.stop()
    }
  }).timeout(240_000)

  test('a failed assembly is logged at error level and the upload stays resumable', async ({
    assert,
  }) => {
    cookie = (await shareUser()).cookie
    await useS3Disk(s3)
    await useVariant(S3_STAGED)
    const faultFile = join(faultDir, 'none')
    await armFaultPoint(faultFile, null)
    const tern = await startCrashTern(faultFile)
    try {
      const shareId = newShareId('fail')
      await createShare(cookie, { id: shareId })
      const upload: Upload = {
        cookie,
        phase: 'assembling',
        variant: S3_STAGED,
        shareId,
        content: randomBytes(2007),
        abandoned: false,
      }
      upload.fileId = (await ok(chunk(tern, upload, 0), 'chunk 0')).id
      await ok(chunk(tern, upload, 1), 'chunk 1')
      const file = await ShareFile.findOrFail(upload.fileId)
      await storage.use('s3').delete(stagedChunkKey(file.storageKey, 1))

      const last = await chunk(tern, upload, 2)
      assert.equal(last.status, 500)
      await until(
        () => tern.process.output().includes('could not assemble an uploaded file'),
        'the error log'
      )
      const line = tern.process
        .output()
        .split('\n')
        .find((l) => l.includes('could not assemble an uploaded file'))!
      assert.equal(JSON.parse(line).level, 50, 'logged at error level')
      assert.include(line, upload.fileId!)
      const early = await tern.request('POST', `/api/shares/${shareId}/complete`, { cookie })
      assert.equal(early.status, 400, 'the file is not reported complete')

      await ok(chunk(tern, upload, 1), 'chunk 1 sent again')
      await ok(tern.request('POST', `/api/shares/${shareId}/complete`, { cookie }), 'complete')
      assert.equal(await downloadedSha(tern, upload), `200 ${sha256(upload.content)}`)
      assert.deepEqual(await storedKeys(upload), [file.storageKey], 'the staged chunks are gone')
    } finally {
      await tern.process.stop()
    }
  }).timeout(60_000)
})
