import { test } from '@japa/runner'
import i18nManager from '@adonisjs/i18n/services/main'
import { formatMessage } from '../../../inertia/lib/format_message.js'

test.group('Pages | message formatting', () => {
  test('replaces named placeholders and leaves unknown ones visible', ({ assert }) => {
    assert.equal(formatMessage('Hello {name}!', { name: 'Ada' }), 'Hello Ada!')
    assert.equal(formatMessage('Hello {name}!', {}), 'Hello {name}!')
    assert.equal(formatMessage('No placeholder'), 'No placeholder')
  })

  test('picks plural branches, exact values first, and replaces #', ({ assert }) => {
    const message = '{count, plural, =0 {No files} one {# file failed} other {# files failed}}'
    assert.equal(formatMessage(message, { count: 0 }), 'No files')
    assert.equal(formatMessage(message, { count: 1 }), '1 file failed')
    assert.equal(formatMessage(message, { count: 1200 }, 'en-US'), '1,200 files failed')
    assert.equal(formatMessage(message, { count: 1200 }, 'de-DE'), '1.200 files failed')
  })

  test('selects by value and falls back to other', ({ assert }) => {
    const message = '{role, select, admin {Administrator} other {User}}'
    assert.equal(formatMessage(message, { role: 'admin' }), 'Administrator')
    assert.equal(formatMessage(message, { role: 'guest' }), 'User')
  })

  test('handles apostrophes like ICU', ({ assert }) => {
    assert.equal(formatMessage("Oops this page doesn't exist."), "Oops this page doesn't exist.")
    assert.equal(formatMessage("It''s {name}", { name: 'ok' }), "It's ok")
    assert.equal(formatMessage("Use '{name}' literally", { name: 'x' }), 'Use {name} literally')
  })

  test('writes numbers with the locale grouping; a missing count is 0, a missing select value takes other', ({
    assert,
  }) => {
    assert.equal(formatMessage('Files ({count})', { count: 1200 }, 'en-US'), 'Files (1,200)')
    assert.equal(formatMessage('Files ({count})', { count: 1200 }, 'de-DE'), 'Files (1.200)')
    assert.equal(formatMessage('{count, plural, =0 {none} other {#}}'), 'none')
    assert.equal(formatMessage('{role, select, admin {A} other {U}}'), 'U')
    assert.equal(formatMessage('{on}/{off}', { on: true, off: false }), 'true/false')
    assert.equal(formatMessage('Broken {message'), 'Broken {message')
  })

  test('agrees with the server ICU formatter on the same messages', ({ assert }) => {
    const messages = [
      ['Hello {name}, {count, plural, one {# share} other {# shares}}', { name: 'Ada', count: 3 }],
      ["Oops this page doesn't exist.", {}],
      ["It''s '{literal}' {count, plural, =0 {none} other {#}}", { count: 0 }],
      [
        '{count, plural, offset:1 =0 {nobody} one {{name}} other {{name} and # others}}',
        { name: 'Ada', count: 3 },
      ],
      ['{count, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', { count: 22 }],
    ] as const
    const i18n = i18nManager.locale('en-US')
    for (const [message, values] of messages) {
      assert.equal(formatMessage(message, values, 'en-US'), i18n.formatRawMessage(message, values))
    }
  })
})
