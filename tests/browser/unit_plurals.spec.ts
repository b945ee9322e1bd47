/**
 * Plural forms in Chromium against the real server: a unit label agrees
 * with the number before it in each language's own plural forms (Russian
 * "1 день", "2 дня", "5 дней", "21 день"; German "1 Tag", "2 Tage"), in the
 * upload modal, on the share edit page and in the admin panel's timespans
 * (the unit dropdown and the "Default: 3 months" text).
 */
import { test } from '@japa/runner'
import type { Browser, Locator, Page } from 'playwright'
import { baseUrl, collectErrors, dialogByTitle, RELOAD_TIMEOUT_MS } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

/** A signed-in page at `path` in `language` (cookie `language`, as the language menu sets it). */
async function pageIn(browser: Browser, language: string, cookie: string, path: string) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1440, height: 900 },
  })
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
    { name: 'language', value: language, url: baseUrl() },
  ])
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto(path)
  await page.waitForSelector('html[data-hydrated]')
  return { context, page, errors }
}

/** The antd Select around the combobox named `name` in `scope` (the inner locator of `has` is relative: from the page). */
function select(page: Page, scope: Locator | Page, name: string) {
  return scope
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox', { name, exact: true }) })
}

/** Types `amount` into `input` and waits until the select shows `label` as its chosen unit. */
async function amountShows(input: Locator, unitSelect: Locator, amount: number, label: string) {
  await input.fill(String(amount))
  await unitSelect
    .locator('.ant-select-selection-item')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .waitFor()
}

/** The labels of the open dropdown's options, after waiting for `first` to be the first one. */
async function openOptions(page: Page, unitSelect: Locator, first: string): Promise<string[]> {
  await unitSelect.click()
  const options = page.locator(
    '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content'
  )
  await options
    .first()
    .filter({ hasText: new RegExp(`^${first}$`) })
    .waitFor()
  const labels = await options.allInnerTexts()
  await page.keyboard.press('Escape')
  return labels
}

/** The upload page with one file picked and the create-share modal open, in `language`. */
async function uploadModal(
  browser: Browser,
  language: string,
  texts: { share: string; title: string }
) {
  const { cookie } = await shareUser()
  const opened = await pageIn(browser, language, cookie, '/upload')
  const { page } = opened
  // The first page of a run can take the dev server long to transform (and Vite may reload it once): the reload bound.
  await page.getByTestId('file-input').waitFor({ state: 'attached', timeout: RELOAD_TIMEOUT_MS })
  await page
    .getByTestId('file-input')
    .setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') }])
  await page.getByTestId('upload-file-list').getByText('a.txt').waitFor()
  await page.getByRole('button', { name: texts.share, exact: true }).click()
  const modal = dialogByTitle(page, texts.title)
  await modal.waitFor()
  return { ...opened, modal }
}

test.group('Unit labels agree with their number | browser', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    for (const key of ['share.defaultExpiration', 'share.maxExpiration', 'general.sessionDuration'])
      await setConfig(key, null)
  })
  group.each.teardown(() => cleanupShareTests())

  test('Russian upload modal: 1 день, 2 дня, 5 дней, 21 день, and every unit after 5', async ({
    browser,
    assert,
  }) => {
    const { context, page, errors, modal } = await uploadModal(browser, 'ru-RU', {
      share: 'Поделиться',
      title: 'Публикация',
    })
    const amount = modal.getByLabel('Истекает через', { exact: true })
    const unit = select(page, modal, 'Единица')
    // The default expiration is 7 days.
    await amountShows(amount, unit, 7, 'Дней')
    for (const [value, label] of [
      [1, 'День'],
      [2, 'Дня'],
      [5, 'Дней'],
      [21, 'День'],
      [22, 'Дня'],
      [11, 'Дней'],
    ] as const) {
      await amountShows(amount, unit, value, label)
    }
    await amountShows(amount, unit, 5, 'Дней')
    assert.deepEqual(await openOptions(page, unit, 'Минут'), [
      'Минут',
      'Часов',
      'Дней',
      'Недель',
      'Месяцев',
      'Лет',
    ])
    await amountShows(amount, unit, 2, 'Дня')
    assert.deepEqual(await openOptions(page, unit, 'Минуты'), [
      'Минуты',
      'Часа',
      'Дня',
      'Недели',
      'Месяца',
      'Года',
    ])
    await amountShows(amount, unit, 21, 'День')
    assert.deepEqual(await openOptions(page, unit, 'Минута'), [
      'Минута',
      'Час',
      'День',
      'Неделя',
      'Месяц',
      'Год',
    ])
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('German upload modal: 1 Tag, 2 Tage', async ({ browser, assert }) => {
    const { context, page, errors, modal } = await uploadModal(browser, 'de-DE', {
      share: 'Teilen',
      title: 'Teilen',
    })
    const amount = modal.getByLabel('Läuft ab nach', { exact: true })
    const unit = select(page, modal, 'Einheit')
    await amountShows(amount, unit, 1, 'Tag')
    await amountShows(amount, unit, 2, 'Tage')
    await amountShows(amount, unit, 1, 'Tag')
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('Russian share edit page: the unit follows the amount (1 неделя, 3 недели, 5 недель)', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      id: newShareId('units'),
      files: { 'a.txt': 'a' },
    })
    const { context, page, errors } = await pageIn(
      browser,
      'ru-RU',
      cookie,
      `/share/${share.id}/edit`
    )
    await page.getByRole('radio', { name: 'Задать новый срок действия' }).check()
    const amount = page.getByLabel('Истекает через', { exact: true })
    const unit = select(page, page, 'Единица')
    await amountShows(amount, unit, 5, 'Дней')
    await unit.click()
    await page
      .locator(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content'
      )
      .filter({ hasText: /^Недель$/ })
      .click()
    await amountShows(amount, unit, 1, 'Неделя')
    await amountShows(amount, unit, 3, 'Недели')
    await amountShows(amount, unit, 5, 'Недель')
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)

  test('Russian admin timespans: "По умолчанию: 3 месяца" and a unit dropdown that follows the number', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const { context, page, errors } = await pageIn(
      browser,
      'ru-RU',
      cookie,
      '/admin/config/general'
    )
    const session = page.getByTestId('config-general.sessionDuration')
    await session.getByText('По умолчанию: 3 месяца', { exact: true }).waitFor()
    const amount = session.getByRole('spinbutton')
    const unit = select(page, session, 'Единица')
    await unit
      .locator('.ant-select-selection-item')
      .filter({ hasText: /^месяца$/ })
      .waitFor()
    await amountShows(amount, unit, 5, 'месяцев')
    await amountShows(amount, unit, 1, 'месяц')
    await amountShows(amount, unit, 0, 'месяцев')

    await page.goto('/admin/config/share')
    await page
      .getByTestId('config-share.defaultExpiration')
      .getByText('По умолчанию: 7 дней', { exact: true })
      .waitFor()
    await page
      .getByTestId('config-share.maxExpiration')
      .getByText('По умолчанию: 0 дней', { exact: true })
      .waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(60_000)
})
