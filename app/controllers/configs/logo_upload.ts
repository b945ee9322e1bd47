/**
 * Reads the `file` part of `POST /api/configs/admin/logo` into memory. The
 * route is processed manually (config/bodyparser.ts `processManually`), so
 * nothing is read before the admin check and the body stops being read as
 * soon as it passes `LOGO_MAX_BYTES`.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { LOGO_MAX_BYTES } from '#services/branding/logo_service'
import { LogoFileTooLargeException, LogoMissingException } from '#services/branding/branding_errors'

/** The multipart field that carries the logo (as in Pingvin Share). */
export const LOGO_FIELD = 'file'

/**
 * The bytes of the uploaded logo. Throws `LogoMissingException` (400) when
 * the request is not multipart or has no `file` part,
 * `LogoFileTooLargeException` (413) past `maxBytes`; a truncated body is 400.
 */
export async function readLogoUpload(
  request: HttpContext['request'],
  maxBytes = LOGO_MAX_BYTES
): Promise<Buffer> {
  if (!request.is(['multipart/form-data']) || !request.multipart) throw new LogoMissingException()
  const multipart = request.multipart
  let received: Buffer | undefined

  multipart.onFile(LOGO_FIELD, {}, async (part, reportChunk) => {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of part as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) {
        multipart.abort(new LogoFileTooLargeException(maxBytes))
        part.resume()
        return
      }
      await reportChunk(chunk)
      chunks.push(chunk)
    }
    received = Buffer.concat(chunks)
  })

  await multipart.process({ maxFields: 20 })
  if (!received) throw new LogoMissingException()
  return received
}
