/**
 * Messages with a number and a noun pick the noun's form by
 * the language's plural rules (the catalogues through the server's
 * formatter, the one the pages use too): the expiry unit labels, the admin
 * timespans, the retry seconds and the upload status.
 */
import { test } from '@japa/runner'
import i18nManager from '@adonisjs/i18n/services/main'

const t = (locale: string, key: string, values: Record<string, string | number>) =>
  i18nManager.locale(locale).t(key, values)

test.group('Pages | unit labels and counted nouns', () => {
  test('expiry unit labels follow the amount in Russian, Polish, Slovenian, Arabic and German', ({
    assert,
  }) => {
    const day = (locale: string, count: number) => t(locale, 'upload.modal.units.day', { count })
    assert.deepEqual(
      [1, 2, 5, 11, 21, 22, 25].map((count) => day('ru-RU', count)),
      ['День', 'Дня', 'Дней', 'Дней', 'День', 'Дня', 'Дней']
    )
    assert.deepEqual(
      [1, 2, 5, 22].map((count) =>
        t('pl-PL', 'share_edit.settings.expiration.units.year', { count })
      ),
      ['Rok', 'Lata', 'Lat', 'Lata']
    )
    assert.deepEqual(
      [1, 2, 3, 5, 101, 102].map((count) => day('sl-SI', count)),
      ['Dan', 'Dneva', 'Dnevi', 'Dni', 'Dan', 'Dneva']
    )
    assert.deepEqual(
      [1, 2, 3, 11].map((count) => day('ar-EG', count)),
      ['يوم', 'يومان', 'أيام', 'يومًا']
    )
    assert.deepEqual(
      [1, 2].map((count) => day('de-DE', count)),
      ['Tag', 'Tage']
    )
    assert.deepEqual(
      [1, 2].map((count) => day('en-US', count)),
      ['Day', 'Days']
    )
  })

  test('admin timespans carry their number: "3 месяца", "5 месяцев", "1 month"', ({ assert }) => {
    assert.equal(t('ru-RU', 'admin.config.timespans.months', { count: 3 }), '3 месяца')
    assert.equal(t('ru-RU', 'admin.config.timespans.months', { count: 5 }), '5 месяцев')
    assert.equal(t('ru-RU', 'admin.config.units.days', { count: 0 }), 'дней')
    assert.equal(t('en-US', 'admin.config.timespans.months', { count: 1 }), '1 month')
    assert.equal(t('ja-JP', 'admin.config.timespans.days', { count: 7 }), '7日')
  })

  test('a single second or file is singular', ({ assert }) => {
    assert.equal(
      t('en-US', 'share.password.tooManyRetry', { seconds: 1 }),
      'Too many attempts. Try again in 1 second.'
    )
    assert.equal(
      t('en-US', 'validation.server.tooManyRequestsRetry', { seconds: 30 }),
      'Too many attempts. Please try again in 30 seconds.'
    )
    assert.equal(
      t('de-DE', 'share.password.tooManyRetry', { seconds: 1 }),
      'Zu viele Versuche. Versuche es in 1 Sekunde erneut.'
    )
    assert.equal(
      t('en-US', 'upload.status.uploading', { done: 0, total: 1, percent: '5%' }),
      'Uploading 0 of 1 file (5%)'
    )
    assert.equal(
      t('en-US', 'upload.status.uploading', { done: 2, total: 3, percent: '22%' }),
      'Uploading 2 of 3 files (22%)'
    )
    assert.equal(
      t('fr-FR', 'upload.status.uploading', { done: 1, total: 3, percent: '5 %' }),
      '1 fichier envoyé sur 3 (5 %)'
    )
  })
})
