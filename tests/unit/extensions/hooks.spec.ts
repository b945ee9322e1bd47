import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { Emitter } from '@adonisjs/core/events'
import {
  HookRefusedException,
  HookRunner,
  type ShareBeforeCreatePayload,
} from '#extensions/hooks/main'

const share = (name: string): ShareBeforeCreatePayload => ({
  share: { id: 'abc', name, recipients: [] },
  creatorId: null,
})

/** A logger recording errors. */
function recordingLogger() {
  const errors: Array<{ context: unknown; message: string }> = []
  return { errors, error: (context: unknown, message: string) => errors.push({ context, message }) }
}

function runner() {
  const logger = recordingLogger()
  const hooks = new HookRunner().attach(new Emitter(app) as never, logger as never)
  return { hooks, logger }
}

test.group('Hooks | filters', () => {
  test('run sequentially in registration order, each seeing the previous result', async ({
    assert,
  }) => {
    const { hooks } = runner()
    hooks.addFilter('share:before_create', (p) => ({
      ...p,
      share: { ...p.share, name: `${p.share.name}-1` },
    }))
    hooks.addFilter('share:before_create', () => undefined)
    hooks.addFilter('share:before_create', async (p) => ({
      ...p,
      share: { ...p.share, name: `${p.share.name}-2` },
    }))
    const result = await hooks.filter('share:before_create', share('x'))
    assert.equal(result.share.name, 'x-1-2')
  })

  test('return the payload unchanged when no handler is registered', async ({ assert }) => {
    const { hooks } = runner()
    const payload = share('same')
    assert.strictEqual(await hooks.filter('share:before_create', payload), payload)
    assert.isFalse(hooks.hasFilters('share:before_create'))
  })

  test('a throwing handler refuses and stops the chain', async ({ assert }) => {
    const { hooks } = runner()
    let later = false
    hooks.addFilter('file:before_store', () => {
      throw new HookRefusedException('virus found', { status: 422, errorKey: 'virus' })
    })
    hooks.addFilter('file:before_store', () => {
      later = true
    })
    const error = await hooks
      .filter('file:before_store', { shareId: 's', file: { name: 'a', size: 1 }, disk: 'local' })
      .catch((e) => e)
    assert.instanceOf(error, HookRefusedException)
    assert.equal(error.status, 422)
    assert.equal(error.code, 'E_HOOK_REFUSED')
    assert.equal(error.errorKey, 'virus')
    assert.isFalse(later)
  })

  test('removeFilter takes a handler out', async ({ assert }) => {
    const { hooks } = runner()
    const handler = (p: ShareBeforeCreatePayload) => ({ ...p, creatorId: 'changed' })
    hooks.addFilter('share:before_create', handler)
    assert.isTrue(hooks.removeFilter('share:before_create', handler))
    assert.isFalse(hooks.removeFilter('share:before_create', handler))
    assert.isNull((await hooks.filter('share:before_create', share('x'))).creatorId)
  })
})

test.group('Hooks | action events', () => {
  test('listeners run in parallel and receive the payload', async ({ assert }) => {
    const { hooks } = runner()
    const order: string[] = []
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    hooks.on('share:created', async ({ shareId }) => {
      order.push(`slow-start-${shareId}`)
      await wait(30)
      order.push('slow-end')
    })
    hooks.on('share:created', async () => {
      order.push('fast-start')
      await wait(1)
      order.push('fast-end')
    })
    await hooks.emit('share:created', { shareId: 's1', creatorId: null })
    assert.deepEqual(order, ['slow-start-s1', 'fast-start', 'fast-end', 'slow-end'])
  })

  test('a failing listener is logged, never thrown, and others still run', async ({ assert }) => {
    const { hooks, logger } = runner()
    let delivered = false
    hooks.on('share:deleted', () => {
      throw new Error('listener broke')
    })
    hooks.on('share:deleted', () => {
      delivered = true
    })
    await hooks.emit('share:deleted', { shareId: 's1' })
    assert.isTrue(delivered)
    assert.lengthOf(logger.errors, 1)
    assert.include(logger.errors[0].message, 'share:deleted')
  })

  test('the unsubscribe function stops delivery', async ({ assert }) => {
    const { hooks } = runner()
    let calls = 0
    const off = hooks.on('share:expired', () => {
      calls++
    })
    await hooks.emit('share:expired', { shareId: 'a' })
    off()
    await hooks.emit('share:expired', { shareId: 'b' })
    assert.equal(calls, 1)
  })

  test('listening before the runner is attached fails clearly', ({ assert }) => {
    assert.throws(() => new HookRunner().on('share:created', () => {}), /not attached/)
  })
})
