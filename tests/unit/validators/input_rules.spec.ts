import { test } from '@japa/runner'
import { assertAcceptableBody, assertAcceptableParams } from '#middleware/body_guard_middleware'
import {
  MAX_BODY_DEPTH,
  type RequestBodyException,
  requestBodyError,
} from '#exceptions/request_body_errors'
import { isWellFormedText } from '#validators/rules'
import { chunkQueryValidator, createShareValidator } from '#validators/shares'
import { createReverseShareValidator } from '#validators/reverse_shares'

/** `depth` arrays nested in each other. */
function nested(depth: number): unknown {
  let value: unknown = 1
  for (let level = 0; level < depth; level++) value = [value]
  return value
}

/** The messages of a rejected validation, or null when it passed. */
async function messagesOf(run: () => Promise<unknown>): Promise<string[] | null> {
  try {
    await run()
    return null
  } catch (error) {
    return ((error as { messages?: { message: string }[] }).messages ?? []).map((m) => m.message)
  }
}

test.group('Validators | hostile input', () => {
  test('tells well-formed text from text with a lone surrogate', ({ assert }) => {
    assert.isTrue(isWellFormedText('a😀b é \u202E'))
    for (const bad of ['\ud800', 'a\udc00', 'x\ud800y', '😀'.slice(0, 1), '\udbff\ud800']) {
      assert.isFalse(isWellFormedText(bad), JSON.stringify(bad))
    }
  })

  test('the body guard refuses bodies deeper than the limit without recursion', ({ assert }) => {
    assert.doesNotThrow(() => assertAcceptableBody({ a: nested(MAX_BODY_DEPTH - 1) }))
    assert.throws(() => assertAcceptableBody({ a: nested(MAX_BODY_DEPTH) }), /nested too deeply/)
    assert.throws(() => assertAcceptableBody(nested(1_000_000)), /nested too deeply/)
  })

  test('the body guard names the field carrying a lone surrogate, in keys too', ({ assert }) => {
    assert.throws(
      () => assertAcceptableBody({ user: { email: 'a\ud800@x.com' } }),
      /"user\.email" contains/
    )
    assert.throws(() => assertAcceptableBody({ list: ['ok', '\udc00'] }), /"list\.1" contains/)
    assert.throws(() => assertAcceptableBody({ ['k\ud800']: 1 }), /request body contains/)
    assert.doesNotThrow(() => assertAcceptableBody({ name: '日本 😀', n: 1, b: null }))
  })

  test('the request guard refuses a NUL character in the body, the query and the address, naming where', ({
    assert,
  }) => {
    // PostgreSQL cannot store U+0000 in text (its driver throws, a 500); every database refuses it alike.
    assert.throws(
      () => assertAcceptableBody({ name: 'a\u0000b' }),
      /^The field "name" contains a NUL character/
    )
    assert.throws(
      () => assertAcceptableBody({ ['k\u0000']: 1 }),
      /^The request body contains a NUL character/
    )
    assert.throws(
      () => assertAcceptableBody({ name: 'a\u0000' }, 'query'),
      /^The query parameter "name" contains a NUL/
    )
    assert.throws(
      () => assertAcceptableBody({ q: '\ud800' }, 'query'),
      /^The query parameter "q" contains characters that are not valid Unicode/
    )
    assert.throws(
      () => assertAcceptableParams({ id: 'a\u0000b' }),
      /^The address contains a NUL character/
    )
    assert.doesNotThrow(() => assertAcceptableParams({ id: 'abc', other: 'x y' }))
    assert.doesNotThrow(() => assertAcceptableBody({ name: 'line\nbreak\ttab' }))
  })

  test('body-parser failures become a coded 400 with a readable message', ({ assert }) => {
    const overflow = Object.assign(new RangeError('Maximum call stack size exceeded'), {
      status: 400,
    })
    const mapped = requestBodyError(overflow) as RequestBodyException
    assert.equal(mapped.status, 400)
    assert.equal(mapped.code, 'E_BODY_TOO_DEEP')
    const syntax = Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400 })
    assert.match((requestBodyError(syntax) as Error).message, /^The request body is not valid JSON/)
    const other = new RangeError('Maximum call stack size exceeded')
    assert.strictEqual(requestBodyError(other), other, 'an overflow elsewhere is not a body error')
  })

  test('chunk query numbers are plain decimal digits only', async ({ assert }) => {
    const valid = await chunkQueryValidator.validate({
      name: 'a.txt',
      chunkIndex: '0',
      totalChunks: '16',
    })
    assert.deepEqual(valid, { name: 'a.txt', chunkIndex: 0, totalChunks: 16 })
    for (const chunkIndex of [
      '',
      ' 1',
      '0x10',
      '1e1',
      '-0',
      '1.0',
      '01',
      '+1',
      '١',
      '1000000',
      ['1'],
    ]) {
      const messages = await messagesOf(() =>
        chunkQueryValidator.validate({ name: 'a', chunkIndex, totalChunks: '2' })
      )
      assert.isNotNull(messages, JSON.stringify(chunkIndex))
    }
    for (const totalChunks of ['0', '0x10', '1000001', '']) {
      assert.isNotNull(
        await messagesOf(() =>
          chunkQueryValidator.validate({ name: 'a', chunkIndex: '0', totalChunks })
        )
      )
    }
    assert.isNotNull(
      await messagesOf(() =>
        chunkQueryValidator.validate({ name: 'a\u0000b', chunkIndex: '0', totalChunks: '1' })
      )
    )
  })

  test('maxViews and maxUseCount take JSON numbers only, within an INTEGER column', async ({
    assert,
  }) => {
    const share = (maxViews: unknown) => ({
      id: 'abc',
      expiration: 'never',
      security: { maxViews },
    })
    assert.equal(
      (await createShareValidator.validate(share(2_147_483_647))).security!.maxViews,
      2_147_483_647
    )
    for (const maxViews of [true, '5', [5], 2_147_483_648, 1e21, 0, -1, 1.5]) {
      assert.isNotNull(
        await messagesOf(() => createShareValidator.validate(share(maxViews))),
        JSON.stringify(maxViews)
      )
    }
    const reverse = { shareExpiration: '1-day', maxShareSize: '1000' }
    for (const extra of [
      { maxUseCount: true },
      { maxUseCount: '3' },
      { sendEmailNotification: 'on' },
      { publicAccess: 1 },
    ]) {
      assert.isNotNull(
        await messagesOf(() => createReverseShareValidator.validate({ ...reverse, ...extra }))
      )
    }
  })

  test('expirations past the year 9999 are a validation error naming the field', async ({
    assert,
  }) => {
    const messages = await messagesOf(() =>
      createShareValidator.validate({ id: 'abc', expiration: '275761-years' })
    )
    assert.deepEqual(messages, [
      'Expiration is too far in the future: the latest possible date is 9999-12-31',
    ])
    const reverse = await messagesOf(() =>
      createReverseShareValidator.validate({ shareExpiration: '10000-years', maxShareSize: '1' })
    )
    assert.deepEqual(reverse, [
      'shareExpiration is too far in the future: the latest possible date is 9999-12-31',
    ])
  })
})
