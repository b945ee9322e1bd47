import { PassThrough } from 'node:stream'
import v8 from 'node:v8'
import vm from 'node:vm'
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { test } from '@japa/runner'
import {
  configureTransferPacing,
  noteTransferred,
  paceTransfer,
} from '#services/files/transfer_gc_pacer'

const MEBIBYTE = 1024 * 1024

/**
 * The test process is not started with --expose-gc (Tern's launches are:
 * scripts/server_flags.js), so the tests get a gc() of their own for contexts
 * created afterwards, the way Node's documentation shows.
 */
function testCollector() {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void
}

/**
 * Counts the minor (scavenge) collections V8 reports while `work` runs.
 * Entries arrive asynchronously (late on a busy machine): it waits until
 * `expected` were seen, at most 2 s, or 100 ms when none are expected.
 */
async function minorCollectionsDuring(
  work: () => void | Promise<void>,
  expected = 0
): Promise<number> {
  let minor = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (
        (entry as { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MINOR
      )
        minor++
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  try {
    await work()
    const deadline = Date.now() + (expected > 0 ? 2000 : 100)
    do await new Promise((resolve) => setTimeout(resolve, 20))
    while ((expected === 0 || minor < expected) && Date.now() < deadline)
  } finally {
    observer.disconnect()
  }
  return minor
}

test.group('Transfer GC pacer', (group) => {
  group.each.teardown(() => configureTransferPacing())

  test('runs one minor collection per step of streamed bytes', async ({ assert }) => {
    configureTransferPacing(1, testCollector())
    // 10 notes of 256 KiB: 2.5 steps -> at least the 2 paced collections.
    const kept: number[][] = []
    const paced = await minorCollectionsDuring(() => {
      for (let i = 0; i < 10; i++) {
        kept.push(new Array(1000).fill(i)) // something young for each collection to find
        noteTransferred(MEBIBYTE / 4)
      }
    }, 2)
    assert.isAtLeast(paced, 2)
    assert.lengthOf(kept, 10)
  })

  test('a process started without --expose-gc does not pace', async ({ assert }) => {
    configureTransferPacing(1, null)
    const paced = await minorCollectionsDuring(() => {
      for (let i = 0; i < 10; i++) noteTransferred(MEBIBYTE)
    })
    assert.equal(paced, 0)
  })

  test('a step of 0 turns pacing off', async ({ assert }) => {
    configureTransferPacing(0, testCollector())
    const paced = await minorCollectionsDuring(() => {
      for (let i = 0; i < 10; i++) noteTransferred(MEBIBYTE)
    })
    assert.equal(paced, 0)
  })

  test('paceTransfer counts what a download stream emits and passes it through unchanged', async ({
    assert,
  }) => {
    configureTransferPacing(1, testCollector())
    const source = new PassThrough()
    const received: Buffer[] = []
    const paced = await minorCollectionsDuring(async () => {
      const stream = paceTransfer(source)
      stream.on('data', (chunk: Buffer) => received.push(chunk))
      for (let i = 0; i < 4; i++) source.write(Buffer.alloc(MEBIBYTE / 2, i))
      source.end()
      await new Promise((resolve) => stream.on('end', resolve))
    }, 2)
    assert.isAtLeast(paced, 2)
    assert.equal(Buffer.concat(received).length, 2 * MEBIBYTE)
    assert.equal(received[3][0], 3)
  })
})
