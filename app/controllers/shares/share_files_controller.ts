import { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { hooks } from '#extensions/hooks/main'
import { configValue } from '#services/config/config_service'
import ChunkUploadService from '#services/files/chunk_upload_service'
import { findShareForChunk } from '#services/files/upload_sessions'
import FileDownloadService from '#services/files/file_download'
import FileStorage from '#services/files/file_storage'
import { UnexpectedChunkException, shareErrors } from '#services/shares/share_errors'
import ShareQueries from '#services/shares/share_queries'
import ShareVisitorAccess from '#services/shares/share_visitor_access'
import DownloadNotices from '#services/shares/download_notices'
import ShareTransformer from '#transformers/share_transformer'
import { chunkQueryValidator } from '#validators/shares'
import { authorizeShare, ownerTokenHashOf } from '#controllers/shares/share_caller'
import { shareTokenOf } from '#controllers/shares/share_token_cookie'
import { downloadRequestOf, sendDownload } from '#controllers/shares/download_response'

/** A file id as the chunk validator accepts it (a UUID). */
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** An `Idempotency-Key` of a first chunk: 1-64 letters, digits, `_` or `-`. */
const UPLOAD_KEY = /^[A-Za-z0-9_-]{1,64}$/

/** The files of a share: chunk upload, download, zip, removal (`/api/shares/:id/files*`). */
@inject()
export default class ShareFilesController {
  constructor(
    private queries: ShareQueries,
    private access: ShareVisitorAccess,
    private chunks: ChunkUploadService,
    private downloads: FileDownloadService,
    private files: FileStorage,
    private notices: DownloadNotices
  ) {}

  /**
   * POST /api/shares/:id/files?name=&chunkIndex=&totalChunks=[&id=]: one
   * chunk, the raw body streamed to storage (the bodyparser leaves
   * application/octet-stream alone). 201 exactly `{id, name}`.
   */
  async upload(ctx: HttpContext) {
    const { request, response, params } = ctx
    // A later chunk (it names its file): the share, the file and its upload session in one query.
    const fileId: unknown = request.qs().id
    // (Only a well-formed id: the validator refuses the others below, and PostgreSQL's uuid column would fail on them.)
    const joined =
      typeof fileId === 'string' && FILE_ID.test(fileId)
        ? await findShareForChunk(params.id, fileId)
        : undefined
    if (joined === null) throw shareErrors.notFound()
    const share = joined?.share ?? (await this.queries.findOrFail(params.id))
    await authorizeShare(ctx, 'manageFiles', share)
    if (share.completed) throw shareErrors.uploadToCompleted()
    const query = await chunkQueryValidator.validate(request.qs())
    const length = request.header('content-length')
    const uploadKey = request.header('idempotency-key') ?? null
    if (uploadKey !== null && !UPLOAD_KEY.test(uploadKey)) throw shareErrors.invalidUploadKey()
    const raw = request.raw()
    const { maxShareSize } = await hooks.filter('share:before_upload', {
      shareId: share.id,
      reverseShareId: share.reverseShareId,
      maxShareSize: null,
    })
    try {
      const file = await this.chunks.receive(
        share,
        {
          name: query.name,
          chunkIndex: query.chunkIndex,
          totalChunks: query.totalChunks,
          fileId: query.id,
          uploadKey,
          contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
          body: raw !== null ? Readable.from([Buffer.from(raw)]) : request.request,
        },
        { maxShareSize, prefetched: joined?.file }
      )
      return response.created(file)
    } catch (error) {
      if (error instanceof UnexpectedChunkException) return response.status(400).send(error.body())
      throw error
    }
  }

  /** GET|HEAD /api/shares/:id/files/:fileId?download=true|false: the file, streamed. */
  async download(ctx: HttpContext) {
    const share = await this.queries.findVisible(ctx.params.id)
    await ctx.auth.check()
    const user = ctx.auth.user ?? null
    const pass = await this.access.downloadAccess(share, shareTokenOf(ctx, share.id), user)
    const file = await this.queries.findFileOrFail(share, ctx.params.fileId, true)
    // Counted by the download service once the answer carries the file (not for HEAD, 304 or 416).
    const countView =
      pass && ctx.request.method() !== 'HEAD'
        ? () => this.access.countDirectView(share, pass)
        : undefined
    const request = { ...downloadRequestOf(ctx), inline: ctx.request.qs().download === 'false' }
    const downloader = { userId: user?.id ?? null, ownerTokenHash: ownerTokenHashOf(ctx) }
    const downloaded = () => this.notices.downloaded(share, file, downloader)
    sendDownload(ctx, await this.downloads.file(share.id, file, request, countView, downloaded))
  }

  /** GET|HEAD /api/shares/:id/files/zip: every file of the share as a streamed zip. */
  async zip(ctx: HttpContext) {
    const share = await this.queries.findVisible(ctx.params.id)
    await ctx.auth.check()
    const user = ctx.auth.user ?? null
    const pass = await this.access.downloadAccess(share, shareTokenOf(ctx, share.id), user)
    await share.load('files')
    if (pass && ctx.request.method() !== 'HEAD') await this.access.countDirectView(share, pass)
    const level = await configValue('share.zipCompressionLevel')
    const files = ShareTransformer.completedFiles(share)
    const downloader = { userId: user?.id ?? null, ownerTokenHash: ownerTokenHashOf(ctx) }
    const downloaded = () => this.notices.downloaded(share, null, downloader)
    sendDownload(
      ctx,
      await this.downloads.zip(share.id, files, level, ctx.request.method(), downloaded)
    )
  }

  /** DELETE /api/shares/:id/files/:fileId: removes one file (owner); 200. */
  async destroy(ctx: HttpContext) {
    const share = await this.queries.findOrFail(ctx.params.id)
    await authorizeShare(ctx, 'manageFiles', share)
    const file = await this.queries.findFileOrFail(share, ctx.params.fileId)
    await this.files.deleteFile(file)
    return ctx.response.ok('')
  }
}
