import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import LogoService, {
  BRANDING_IMAGES,
  ICON_SIZES,
  LOGO_MAX_BYTES,
} from '#services/branding/logo_service'
import { accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'
import { api, baseUrl } from '#tests/helpers/shares'
import { makePng, pngHeaderOnly, readPng, type Rgba } from '#tests/helpers/png'

const logoService = await app.container.make(LogoService)

const RED: Rgba = [255, 0, 0, 255]
const BLUE: Rgba = [0, 0, 255, 255]

/** POSTs `bytes` as the multipart field `field` (default `file`), as a browser's FormData would. */
async function uploadLogo(
  bytes: Buffer | string,
  headers: Record<string, string>,
  options: { field?: string; filename?: string; type?: string } = {}
) {
  const form = new FormData()
  const blob = new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], {
    type: options.type ?? 'image/png',
  })
  form.append(options.field ?? 'file', blob, options.filename ?? 'logo.png')
  const response = await fetch(`${baseUrl()}/api/configs/admin/logo`, {
    method: 'POST',
    headers,
    body: form,
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : null }
}

async function adminHeaders(): Promise<Record<string, string>> {
  const [name, value] = await authHeaderFor(await createUser({ admin: true }))
  return { [name]: value }
}

test.group('Admin | logo upload', (group) => {
  group.each.setup(async () => {
    await logoService.remove()
    return testUtils.db().withGlobalTransaction()
  })
  group.teardown(() => logoService.remove())

  test('a square PNG is accepted (201) and served at /img/logo.png', async ({ assert }) => {
    const logo = makePng(64, 64, () => RED)
    const response = await uploadLogo(logo, await adminHeaders())
    assert.equal(response.status, 201)

    const served = await api('GET', '/img/logo.png')
    assert.equal(served.status, 200)
    assert.equal(served.headers.get('content-type'), 'image/png')
    assert.isTrue(served.bytes.equals(logo), 'a logo needing no scaling is served as uploaded')
    assert.isTrue((await readFile(join(logoService.directory, 'logo.png'))).equals(logo))
  })

  test('derives the favicon, the apple touch icon and every app icon at their sizes', async ({
    assert,
  }) => {
    const halves = makePng(100, 100, (x) => (x < 50 ? RED : BLUE))
    assert.equal((await uploadLogo(halves, await adminHeaders())).status, 201)

    const favicon = await api('GET', '/img/favicon.png')
    assert.equal(favicon.status, 200)
    assert.equal(favicon.headers.get('content-type'), 'image/png')
    const image = readPng(favicon.bytes)
    assert.deepEqual([image.width, image.height], [32, 32])
    assert.deepEqual(image.pixel(2, 16), RED)
    assert.deepEqual(image.pixel(29, 16), BLUE)

    const touch = readPng((await api('GET', '/img/apple-touch-icon.png')).bytes)
    assert.deepEqual([touch.width, touch.height], [180, 180])
    for (const size of ICON_SIZES) {
      const icon = await api('GET', `/img/icons/icon-${size}x${size}.png`)
      assert.equal(icon.status, 200, `icon ${size}`)
      const decoded = readPng(icon.bytes)
      assert.deepEqual([decoded.width, decoded.height], [size, size])
      assert.deepEqual(decoded.pixel(0, 0), RED)
      assert.deepEqual(decoded.pixel(size - 1, size - 1), BLUE)
    }
  })

  test('serves the favicon as a real ICO at /favicon.ico and /img/favicon.ico', async ({
    assert,
  }) => {
    assert.equal(
      (
        await uploadLogo(
          makePng(48, 48, () => BLUE),
          await adminHeaders()
        )
      ).status,
      201
    )
    for (const path of ['/favicon.ico', '/img/favicon.ico']) {
      const ico = await api('GET', path)
      assert.equal(ico.status, 200)
      assert.equal(ico.headers.get('content-type'), 'image/x-icon')
      assert.deepEqual(
        [ico.bytes.readUInt16LE(0), ico.bytes.readUInt16LE(2), ico.bytes.readUInt16LE(4)],
        [0, 1, 1]
      )
      assert.deepEqual([ico.bytes[6], ico.bytes[7]], [32, 32])
      const offset = ico.bytes.readUInt32LE(18)
      assert.equal(ico.bytes.readUInt32LE(14), ico.bytes.length - offset)
      const embedded = readPng(ico.bytes.subarray(offset))
      assert.deepEqual(
        [embedded.width, embedded.height, ...embedded.pixel(16, 16)],
        [32, 32, ...BLUE]
      )
    }
  })

  test('keeps transparency: transparent pixels do not darken the edges of icons', async ({
    assert,
  }) => {
    const ring = makePng(64, 64, (x) => (x < 32 ? [0, 0, 0, 0] : [255, 255, 255, 255]))
    assert.equal((await uploadLogo(ring, await adminHeaders())).status, 201)
    const icon = readPng((await api('GET', '/img/icons/icon-48x48.png')).bytes)
    assert.equal(icon.pixel(0, 10)[3], 0)
    const edge = icon.pixel(24, 10)
    assert.isAbove(edge[3], 0)
    assert.deepEqual(
      edge.slice(0, 3),
      [255, 255, 255],
      'the colour of a half-covered pixel stays white'
    )
  })

  test('accepts PNGs without alpha and grayscale PNGs', async ({ assert }) => {
    const headers = await adminHeaders()
    assert.equal(
      (
        await uploadLogo(
          makePng(40, 40, () => RED, 2),
          headers
        )
      ).status,
      201
    )
    assert.deepEqual(readPng((await api('GET', '/img/favicon.png')).bytes).pixel(5, 5), RED)
    assert.equal(
      (
        await uploadLogo(
          makePng(40, 40, () => [200, 200, 200, 255], 0),
          headers
        )
      ).status,
      201
    )
    assert.deepEqual(
      readPng((await api('GET', '/img/favicon.png')).bytes).pixel(5, 5),
      [200, 200, 200, 255]
    )
  })

  test('stores a large logo scaled down to 1024x1024', async ({ assert }) => {
    const large = makePng(1500, 1500, (x, y) => (x < 750 && y < 750 ? RED : BLUE))
    assert.equal((await uploadLogo(large, await adminHeaders())).status, 201)
    const logo = readPng((await api('GET', '/img/logo.png')).bytes)
    assert.deepEqual([logo.width, logo.height], [1024, 1024])
    assert.deepEqual(logo.pixel(10, 10), RED)
    assert.deepEqual(logo.pixel(1000, 1000), BLUE)
  })

  test('a non-square PNG is refused with 400 and changes nothing', async ({ assert }) => {
    const response = await uploadLogo(
      makePng(64, 32, () => RED),
      await adminHeaders()
    )
    assert.equal(response.status, 400)
    assert.deepEqual(response.json, {
      statusCode: 400,
      message: 'The logo must be square (1:1)',
      error: 'Bad Request',
    })
    assert.isFalse(await logoService.hasCustomLogo())
  })

  test('a file that is not a PNG is refused with 400, whatever its name and type say', async ({
    assert,
  }) => {
    const headers = await adminHeaders()
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01,
    ])
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    const broken = Buffer.concat([pngHeaderOnly(64, 64), Buffer.from('not deflate data')])
    for (const bytes of [jpeg, svg, broken]) {
      const response = await uploadLogo(bytes, headers)
      assert.equal(response.status, 400)
      assert.deepEqual(response.json, {
        statusCode: 400,
        message: 'The logo must be a PNG image',
        error: 'Bad Request',
      })
    }
    assert.isFalse(await logoService.hasCustomLogo())
  })

  test('refuses a PNG declaring huge dimensions before decoding it', async ({ assert }) => {
    const response = await uploadLogo(pngHeaderOnly(50000, 50000), await adminHeaders())
    assert.equal(response.status, 400)
    assert.equal(response.json.message, 'The logo must be at most 4096x4096 pixels')
  })

  test('a file over 5 MB is 413', async ({ assert }) => {
    const big = Buffer.concat([makePng(8, 8, () => RED), Buffer.alloc(LOGO_MAX_BYTES)])
    const response = await uploadLogo(big, await adminHeaders())
    assert.equal(response.status, 413)
    assert.deepEqual(response.json, {
      statusCode: 413,
      message: 'The logo file must be at most 5 MB',
      error: 'Payload Too Large',
    })
    assert.isFalse(await logoService.hasCustomLogo())
  })

  test('a body without the file field, or not multipart, is 400 "The logo file is required"', async ({
    assert,
  }) => {
    const headers = await adminHeaders()
    const otherField = await uploadLogo(
      makePng(8, 8, () => RED),
      headers,
      { field: 'image' }
    )
    assert.equal(otherField.status, 400)
    assert.equal(otherField.json.message, 'The logo file is required')
    const json = await api('POST', '/api/configs/admin/logo', { json: { file: 'x' }, headers })
    assert.equal(json.status, 400)
    assert.equal(json.json.message, 'The logo file is required')
  })

  test('visitors get 401 and non-admins 403, and nothing is stored', async ({ assert }) => {
    const logo = makePng(16, 16, () => RED)
    const visitor = await uploadLogo(logo, {})
    assert.equal(visitor.status, 401)
    const user = await createUser()
    const forbidden = await uploadLogo(logo, { cookie: await accessCookieFor(user) })
    assert.equal(forbidden.status, 403)
    assert.deepEqual(forbidden.json, { statusCode: 403, message: 'Forbidden', error: 'Forbidden' })
    assert.equal((await api('DELETE', '/api/configs/admin/logo')).status, 401)
    assert.equal(
      (await api('DELETE', '/api/configs/admin/logo', { cookie: await accessCookieFor(user) }))
        .status,
      403
    )
    assert.isFalse(await logoService.hasCustomLogo())
  })
})

test.group('Admin | logo serving', (group) => {
  group.each.setup(async () => {
    await logoService.remove()
    return testUtils.db().withGlobalTransaction()
  })
  group.teardown(() => logoService.remove())

  test('without an upload, every image is the built-in logo or derived from it', async ({
    assert,
  }) => {
    const builtin = await readFile(app.makePath('resources/branding/default_logo.png'))
    const logo = await api('GET', '/img/logo.png')
    assert.equal(logo.status, 200)
    assert.isTrue(logo.bytes.equals(builtin))
    for (const { name, size, format } of BRANDING_IMAGES) {
      const response = await api('GET', `/img/${name}`)
      assert.equal(response.status, 200, name)
      if (size === null || format !== 'png') continue
      const image = readPng(response.bytes)
      assert.deepEqual([image.width, image.height], [size, size], name)
    }
    assert.equal((await api('GET', '/favicon.ico')).status, 200)
  })

  test('unknown image names are 404; the SVG files of public/ are still served', async ({
    assert,
  }) => {
    assert.equal((await api('GET', '/img/nothing.png')).status, 404)
    assert.equal((await api('GET', '/img/icons/icon-10x10.png')).status, 404)
    const svg = await api('GET', '/img/logo.svg')
    assert.equal(svg.status, 200)
    assert.include(svg.headers.get('content-type') ?? '', 'image/svg+xml')
  })

  test('answers an ETag with no-cache, 304 for a matching If-None-Match, and a new ETag after an upload', async ({
    assert,
  }) => {
    const first = await api('GET', '/img/favicon.png')
    const etag = first.headers.get('etag')!
    assert.match(etag, /^"[\w-]+"$/)
    assert.equal(first.headers.get('cache-control'), 'no-cache')
    const revalidated = await api('GET', '/img/favicon.png', { headers: { 'if-none-match': etag } })
    assert.equal(revalidated.status, 304)
    assert.equal(revalidated.bytes.length, 0)

    assert.equal(
      (
        await uploadLogo(
          makePng(32, 32, () => RED),
          await adminHeaders()
        )
      ).status,
      201
    )
    const changed = await api('GET', '/img/favicon.png', { headers: { 'if-none-match': etag } })
    assert.equal(changed.status, 200)
    assert.notEqual(changed.headers.get('etag'), etag)
    assert.deepEqual(readPng(changed.bytes).pixel(0, 0), RED)
  })

  test('DELETE /api/configs/admin/logo (204) brings the built-in images back', async ({
    assert,
  }) => {
    const headers = await adminHeaders()
    assert.equal(
      (
        await uploadLogo(
          makePng(32, 32, () => RED),
          headers
        )
      ).status,
      201
    )
    assert.isTrue(await logoService.hasCustomLogo())
    const removed = await api('DELETE', '/api/configs/admin/logo', { headers })
    assert.equal(removed.status, 204)
    assert.isFalse(await logoService.hasCustomLogo())
    const builtin = await readFile(app.makePath('resources/branding/default_logo.png'))
    assert.isTrue((await api('GET', '/img/logo.png')).bytes.equals(builtin))
    await assert.rejects(() => stat(join(logoService.directory, 'favicon.png')))
  })

  test('another instance sharing DATA_DIR serves the uploaded logo too', async ({ assert }) => {
    const otherInstance = new LogoService(logoService.directory)
    const before = await otherInstance.read('favicon.png')
    assert.isFalse(before!.custom)

    assert.equal(
      (
        await uploadLogo(
          makePng(32, 32, () => BLUE),
          await adminHeaders()
        )
      ).status,
      201
    )
    const after = await otherInstance.read('favicon.png')
    assert.isTrue(after!.custom)
    assert.deepEqual(readPng(after!.bytes).pixel(3, 3), BLUE)
    assert.notEqual(after!.etag, before!.etag)
  })

  test('the page shell links the served favicon and the header shows the served logo', async ({
    assert,
  }) => {
    const page = await api('GET', '/auth/signIn')
    const html = page.bytes.toString('utf8')
    assert.include(html, '<link rel="icon" href="/img/favicon.png"')
    assert.include(html, '<link rel="apple-touch-icon" href="/img/apple-touch-icon.png"')
    assert.include(html, 'src="/img/logo.png"')
  })
})
