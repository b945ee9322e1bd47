/**
 * The upload page's figures: sizes,
 * speeds, percentages and time left written by Intl for English, French and
 * German (each with its own units and spacing), and the moving-average speed
 * meter and the pace of the screen-reader announcements, driven by made-up clocks.
 */
import { test } from '@japa/runner'
import {
  formatBytes,
  formatDuration,
  formatPercent,
  formatSpeed,
} from '../../inertia/lib/format.js'
import { SpeedMeter, announcementDue } from '../../inertia/lib/upload_progress.js'

/** Intl separates numbers and units with no-break spaces; compare with plain ones. */
const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ') ?? null

test.group('Upload progress | formatting per language', () => {
  test('sizes use the language units: MB in English and German, Mo in French', ({ assert }) => {
    assert.deepEqual(
      [0, 999, 1000, 1_500_000, 2_500_000_000, 1_234_567_890_123].map((bytes) =>
        plain(formatBytes(bytes, 'en-US'))
      ),
      ['0 bytes', '999 bytes', '1 kB', '1.5 MB', '2.5 GB', '1.2 TB']
    )
    assert.deepEqual(
      [0, 999, 1000, 1_500_000, 2_500_000_000, 1_234_567_890_123].map((bytes) =>
        plain(formatBytes(bytes, 'fr-FR'))
      ),
      ['0 octet', '999 octets', '1 ko', '1,5 Mo', '2,5 Go', '1,2 To']
    )
    assert.deepEqual(
      [0, 999, 1000, 1_500_000, 2_500_000_000].map((bytes) => plain(formatBytes(bytes, 'de-DE'))),
      ['0 Byte', '999 Byte', '1 kB', '1,5 MB', '2,5 GB']
    )
    assert.equal(formatBytes(Number.NaN, 'en-US'), '0 bytes')
    assert.equal(plain(formatBytes(1_500_000, 'xx-invalid-locale-tag-!!')), '1.5 MB')
  })

  test('speeds are sizes per second', ({ assert }) => {
    assert.equal(plain(formatSpeed(4_200_000, 'en-US')), '4.2 MB/s')
    assert.equal(plain(formatSpeed(4_200_000, 'fr-FR')), '4,2 Mo/s')
    assert.equal(plain(formatSpeed(4_200_000, 'de-DE')), '4,2 MB/s')
    assert.equal(plain(formatSpeed(120_000_000_000 / 100, 'fr-FR')), '1,2 Go/s')
  })

  test('percentages follow each language spacing, rounded down and clamped', ({ assert }) => {
    assert.equal(formatPercent(32.9, 'en-US'), '32%')
    assert.equal(plain(formatPercent(32.9, 'fr-FR')), '32 %')
    assert.equal(plain(formatPercent(32.9, 'de-DE')), '32 %')
    assert.equal(formatPercent(140, 'en-US'), '100%')
    assert.equal(formatPercent(-3, 'en-US'), '0%')
  })

  test('time left is rounded the way people say it, in the language', ({ assert }) => {
    assert.isNull(formatDuration(4, 'en-US'), 'under 10 s the page says "a few seconds"')
    assert.deepEqual(
      [34, 130, 5400, 200_000].map((seconds) => plain(formatDuration(seconds, 'en-US'))),
      ['30 seconds', '2 minutes', '1.5 hours', '2.3 days']
    )
    assert.deepEqual(
      [34, 130, 5400].map((seconds) => plain(formatDuration(seconds, 'fr-FR'))),
      ['30 secondes', '2 minutes', '1,5 heure']
    )
    assert.deepEqual(
      [34, 130, 5400].map((seconds) => plain(formatDuration(seconds, 'de-DE'))),
      ['30 Sekunden', '2 Minuten', '1,5 Stunden']
    )
    assert.equal(plain(formatDuration(61, 'en-US')), '1 minute')
  })
})

test.group('Upload progress | speed meter', () => {
  test('no speed in the first second, then the average over the window', ({ assert }) => {
    const meter = new SpeedMeter(5000, 1000)
    meter.start(0)
    meter.record(500, 1_000_000)
    assert.isNull(meter.speed(500))
    meter.record(1000, 2_000_000)
    assert.equal(meter.speed(1000), 2_000_000)
    // Steady 2 MB/s for 10 s: the average stays there.
    for (let time = 1500; time <= 10_000; time += 500) meter.record(time, time * 2000)
    assert.closeTo(meter.speed(10_000)!, 2_000_000, 1)
  })

  test('a change of pace shows within the window, not over the whole upload', ({ assert }) => {
    const meter = new SpeedMeter(5000, 1000)
    meter.start(0)
    // 10 s at 10 MB/s, then 10 s at 1 MB/s.
    for (let time = 1000; time <= 10_000; time += 1000) meter.record(time, time * 10_000)
    for (let time = 11_000; time <= 20_000; time += 1000)
      meter.record(time, 100_000_000 + (time - 10_000) * 1000)
    const speed = meter.speed(20_000)!
    assert.isBelow(speed, 1_300_000)
    assert.isAbove(speed, 900_000)
    assert.closeTo(meter.secondsLeft(20_000, 10_000_000)!, 10_000_000 / speed, 0.001)
  })

  test('sparse updates (one per big chunk) still give a speed, which decays while nothing arrives', ({
    assert,
  }) => {
    const meter = new SpeedMeter(5000, 1000)
    meter.start(0)
    meter.record(8000, 10_000_000)
    assert.closeTo(meter.speed(8000)!, 1_250_000, 1)
    assert.isBelow(meter.speed(16_000)!, meter.speed(8000)!)
    assert.equal(meter.secondsLeft(16_000, 0), 0)
  })

  test('nothing stored yet means a speed of 0 and no time left', ({ assert }) => {
    const meter = new SpeedMeter()
    meter.start(0)
    assert.equal(meter.speed(3000), 0)
    assert.isNull(meter.secondsLeft(3000, 1000))
  })

  test('the live region speaks at a phase change or after the interval, not at every tick', ({
    assert,
  }) => {
    assert.isTrue(announcementDue(null, 0, 'uploading'))
    assert.isFalse(announcementDue({ time: 0, phase: 'uploading' }, 14_999, 'uploading'))
    assert.isTrue(announcementDue({ time: 0, phase: 'uploading' }, 15_000, 'uploading'))
    assert.isTrue(announcementDue({ time: 0, phase: 'uploading' }, 1000, 'completing'))
  })
})
