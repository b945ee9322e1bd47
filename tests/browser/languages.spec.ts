/**
 * Languages in Chromium against the real server: in ar-EG,
 * ja-JP, ru-RU and de-DE (chosen as a person does: the language menu's
 * cookie, or the browser's Accept-Language) the share page of a 3-file
 * share, the upload flow (files picked, the create-share modal, the
 * share-ready modal) and the admin configuration (general) at 1440 and
 * 360 px: <html lang>/dir, nothing cut off (tests/helpers/layout.ts), and no
 * English catalogue text of more than one word on screen unless the
 * language keeps it (tests/fixtures/i18n/same_as_english/<lang>.json). In
 * Arabic the layout is mirrored (logo on the right, back arrow pointing
 * right). The language menu names every language in itself.
 */
import { test } from '@japa/runner'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { IntlMessageFormat } from 'intl-messageformat'
import type { Browser, Locator, Page } from 'playwright'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { cutOff } from '#tests/helpers/layout'
import { LOCALES } from '#start/locales'

// Globals of the page the evaluated functions run in (the tests' tsconfig has no DOM library).
declare const document: any
declare const window: any

const LANG_ROOT = join(process.cwd(), 'resources', 'lang')

/** How each language is chosen: the language menu's cookie, or the browser's language (Accept-Language). */
const LANGUAGES: { code: string; via: 'cookie' | 'browser' }[] = [
  { code: 'ar-EG', via: 'browser' },
  { code: 'ja-JP', via: 'browser' },
  { code: 'ru-RU', via: 'cookie' },
  { code: 'de-DE', via: 'cookie' },
]

/** Every `namespace:key` → message of a language's catalogues (namespace = file path without .json). */
function catalogue(code: string): Map<string, string> {
  const messages = new Map<string, string>()
  const root = join(LANG_ROOT, code)
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.json')) {
        const namespace = relative(root, path).slice(0, -'.json'.length).split('\\').join('/')
        const flatten = (value: unknown, prefix: string) => {
          if (typeof value === 'string') messages.set(`${namespace}:${prefix}`, value)
          else if (value && typeof value === 'object') {
            for (const [key, inner] of Object.entries(value))
              flatten(inner, prefix ? `${prefix}.${key}` : key)
          }
        }
        flatten(JSON.parse(readFileSync(path, 'utf8')), '')
      }
    }
  }
  walk(root)
  return messages
}

/** A message of `code` formatted with `values` (the catalogue key as `namespace:key`). */
function tr(code: string, key: string, values: Record<string, string | number> = {}): string {
  const message = catalogue(code).get(key)
  if (message === undefined) throw new Error(`${code} has no ${key}`)
  return String(new IntlMessageFormat(message, code, undefined, { ignoreTag: true }).format(values))
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Element types of @formatjs/icu-messageformat-parser. */
const LITERAL = 0
const SELECT = 5
const PLURAL = 6
const POUND = 7

type Part = { literal: string } | { hole: true }

/**
 * The shapes a message can take on screen: one list of parts per branch of
 * its plurals and selects, placeholders as holes (capped, messages nest little).
 */
function variants(elements: any[]): Part[][] {
  let result: Part[][] = [[]]
  for (const element of elements) {
    let options: Part[][]
    if (element.type === LITERAL) options = [[{ literal: element.value }]]
    else if (element.type === POUND) options = [[{ hole: true }]]
    else if (element.type === SELECT || element.type === PLURAL) {
      options = Object.values(element.options as Record<string, { value: any[] }>).flatMap(
        (option) => variants(option.value)
      )
    } else options = [[{ hole: true }]]
    result = result
      .flatMap((before) => options.map((option) => [...before, ...option]))
      .slice(0, 64)
  }
  return result
}

/**
 * The English messages that must not be on screen in `code`: every en-US
 * message whose shape has more than one word of its own, except the keys
 * `code` keeps as in English. Each as a pattern whose placeholders match any
 * text, bounded so that it does not match inside a longer word.
 */
function englishPatterns(code: string): { key: string; text: string; pattern: RegExp }[] {
  const allowed = new Set<string>(
    JSON.parse(
      readFileSync(join('tests', 'fixtures', 'i18n', 'same_as_english', `${code}.json`), 'utf8')
    )
  )
  const patterns: { key: string; text: string; pattern: RegExp }[] = []
  for (const [key, message] of catalogue('en-US')) {
    if (allowed.has(key)) continue
    let elements: any[]
    try {
      elements = new IntlMessageFormat(message, 'en-US', undefined, {
        ignoreTag: true,
      }).getAst() as any[]
    } catch {
      continue
    }
    for (const parts of variants(elements)) {
      const words = parts
        .map((part) => ('literal' in part ? part.literal : ' '))
        .join('')
        .split(/\s+/)
        .filter((word) => /\p{L}/u.test(word))
      if (words.length < 2) continue
      const source = parts
        .map((part) => ('literal' in part ? escape(part.literal) : '[^\\n]+?'))
        .join('')
        .trim()
      patterns.push({
        key,
        text: message,
        pattern: new RegExp(`(?<![\\p{L}\\p{N}])${source}(?![\\p{L}\\p{N}])`, 'u'),
      })
    }
  }
  return patterns
}

/** The visible text of the page (open modals and menus included) and its inputs' placeholders. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const placeholders = [...document.querySelectorAll('input[placeholder], textarea[placeholder]')]
      .filter((input: any) => input.offsetParent !== null)
      .map((input: any) => input.getAttribute('placeholder'))
    return [document.body.innerText, ...placeholders].join('\n')
  })
}

/** The English texts on screen in `code` (an empty list when there are none). */
async function english(page: Page, code: string): Promise<string[]> {
  const text = await visibleText(page)
  return englishPatterns(code)
    .filter(({ pattern }) => pattern.test(text))
    .map(
      ({ key, text: message, pattern }) =>
        `${key} "${message}": ${JSON.stringify(text.match(pattern)![0])}`
    )
}

/**
 * `cutOff` inside the open modal `modal` only: behind its mask the page
 * counts as covered. Measured once no dialog is still zooming in or out (a
 * closing one would cover the next), with the modal marked for the
 * helper's selector for that measure only.
 */
async function cutOffInModal(page: Page, modal: Locator): Promise<string[]> {
  await page.waitForFunction(
    () => !document.querySelector('.ant-zoom-appear, .ant-zoom-enter, .ant-zoom-leave')
  )
  await modal.evaluate((element: any) => element.setAttribute('data-checked-modal', ''))
  try {
    return await cutOff(page, '[data-checked-modal]')
  } finally {
    await modal.evaluate((element: any) => element.removeAttribute('data-checked-modal'))
  }
}

/** A browser page `width` px wide in `language` (chosen as `via` says), signed in with `cookie` when given. */
async function openIn(
  browser: Browser,
  language: (typeof LANGUAGES)[number],
  width: number,
  cookie?: string
) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: 900 },
    isMobile: width < 768,
    hasTouch: width < 768,
    ...(language.via === 'browser' ? { locale: language.code } : {}),
  })
  const cookies = []
  if (language.via === 'cookie')
    cookies.push({ name: 'language', value: language.code, url: baseUrl() })
  if (cookie)
    cookies.push({
      name: 'access_token',
      value: cookie.slice('access_token='.length),
      url: baseUrl(),
    })
  await context.addCookies(cookies)
  const page = await context.newPage()
  const errors = collectErrors(page)
  return { context, page, errors }
}

/** Opens `path` and waits for the page to be hydrated. */
async function visit(page: Page, path: string) {
  await page.goto(path)
  await page.waitForSelector('html[data-hydrated]')
}

/**
 * The accessible name of an antd button labelled `text`, after its icon's
 * name if any. Exactly the label: in Japanese antd must not space a
 * two-kanji label (共有, not 共 有) as it does for Chinese (ThemeProvider).
 */
function buttonName(text: string): RegExp {
  return new RegExp(`(?:^|\\s)${escape(text)}$`, 'u')
}

/** <html lang> and dir are the language's from the first paint on. */
async function assertDocumentLanguage(page: Page, code: string, assert: any) {
  assert.equal(await page.locator('html').getAttribute('lang'), code)
  assert.equal(await page.locator('html').getAttribute('dir'), code === 'ar-EG' ? 'rtl' : 'ltr')
}

/** The horizontal transform scale of the element `selector` matches (-1 when mirrored). */
async function scaleX(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const transform = window.getComputedStyle(element).transform
      if (!transform || transform === 'none') return 1
      return Number(transform.match(/^matrix\(([^,]+)/)?.[1] ?? 1)
    })
}

test.group('Languages | pages and admin in ar-EG, ja-JP, ru-RU and de-DE | browser', (group) => {
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
    await setConfig('share.autoOpenShareModal', 'false')
  })
  group.each.teardown(() => cleanupShareTests())

  for (const language of LANGUAGES) {
    const { code } = language
    for (const width of [1440, 360]) {
      test(`${code} at ${width} px: the share page of a 3-file share`, async ({
        browser,
        assert,
      }) => {
        const { cookie } = await shareUser()
        const share = await createCompletedShare({
          cookie,
          id: newShareId('lang'),
          files: { 'bericht-2026.pdf': 'pdf', 'фото_001.jpg': 'jpg', 'ملاحظات.txt': 'notes' },
        })
        const { context, page, errors } = await openIn(browser, language, width)
        await visit(page, `/share/${share.id}`)
        await assertDocumentLanguage(page, code, assert)
        await page.getByRole('heading', { level: 1, name: share.id }).waitFor()
        await page
          .getByRole('cell', { name: /ملاحظات\.txt/ })
          .first()
          .waitFor()
        await page
          .getByRole('button', { name: buttonName(tr(code, 'share:downloadAll.label')) })
          .waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOff(page), [])

        if (code === 'ar-EG') {
          // Mirrored: the logo sits at the header's right end, the files' actions at the left.
          const logo = (await page.locator('.tern-brand').boundingBox())!
          assert.isAbove(logo.x + logo.width, width - 40, 'the logo is on the right')
          const name = (await page
            .getByRole('columnheader', { name: tr(code, 'share:files.name') })
            .boundingBox())!
          assert.isAbove(name.x + name.width, width / 2, 'the Name column is on the right')
        }
        assert.deepEqual(errors, [])
        await context.close()
      }).timeout(120_000)

      test(`${code} at ${width} px: the upload flow, create-share and share-ready modals`, async ({
        browser,
        assert,
      }) => {
        const { cookie } = await shareUser()
        const { context, page, errors } = await openIn(browser, language, width, cookie)
        await visit(page, '/upload')
        await assertDocumentLanguage(page, code, assert)
        await page.getByRole('heading', { level: 1, name: tr(code, 'upload:title') }).waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOff(page), [])

        await page.getByTestId('file-input').setInputFiles([
          { name: 'bericht-2026.pdf', mimeType: 'application/pdf', buffer: Buffer.from('pdf') },
          { name: 'фото_001.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('jpg') },
          { name: 'ملاحظات.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') },
        ])
        await page.getByTestId('upload-file-list').getByText('ملاحظات.txt').waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOff(page), [])

        // The create-share modal.
        await page.getByRole('button', { name: buttonName(tr(code, 'upload:share')) }).click()
        const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('share-id-input') })
        const idInput = modal.getByTestId('share-id-input')
        await idInput.waitFor()
        await idInput.fill(newShareId('lang'))
        if (code === 'ar-EG') {
          // The link's start reads as a URL, left to right ("127.0.0.1:port/s/"), not mirrored into "/s/127.0.0.1:port".
          const prefix = modal.getByTestId('share-link-prefix')
          assert.equal(
            await prefix.evaluate((element) => window.getComputedStyle(element).direction),
            'ltr'
          )
          assert.match((await prefix.textContent()) ?? '', /^127\.0\.0\.1:\d+\/s\/$/)
        }
        await modal
          .locator('.ant-modal-title')
          .getByText(tr(code, 'upload:modal.title'), { exact: true })
          .waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOffInModal(page, modal), [])
        await modal.getByRole('button', { name: buttonName(tr(code, 'upload:share')) }).click()

        // The share-ready modal.
        const ready = page
          .locator('.ant-modal')
          .filter({ has: page.getByTestId('share-expiration') })
        await ready.waitFor({ timeout: 60_000 })
        await ready
          .locator('.ant-modal-title')
          .getByText(tr(code, 'share_common:linkModal.title'), { exact: true })
          .waitFor()
        await page.getByText(tr(code, 'upload:status.done')).first().waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOffInModal(page, ready), [])

        if (code === 'ar-EG' && width === 360) {
          // The burger menu's drawer comes from the left (the end of the header), its sign-out arrow points left.
          await ready
            .getByRole('button', { name: buttonName(tr(code, 'share_common:linkModal.done')) })
            .click()
          await ready.waitFor({ state: 'hidden' })
          await page.getByRole('button', { name: tr(code, 'shell:nav.openMenu') }).click()
          const drawer = page.locator('.ant-drawer-content-wrapper')
          await drawer.waitFor()
          await page.waitForFunction(() => {
            const box = document
              .querySelector('.ant-drawer-content-wrapper')
              ?.getBoundingClientRect()
            return box && Math.abs(box.left) < 1
          })
          const signOut = drawer.getByRole('button', { name: tr(code, 'shell:nav.signOut') })
          assert.equal(
            await scaleX(page, '.ant-drawer-content-wrapper .ant-btn-dangerous .anticon'),
            -1
          )
          assert.isTrue(await signOut.isVisible())
          assert.deepEqual(await english(page, code), [])
        }
        assert.deepEqual(errors, [])
        await context.close()
      }).timeout(120_000)

      test(`${code} at ${width} px: the admin configuration (general)`, async ({
        browser,
        assert,
      }) => {
        const { cookie } = await shareUser({ admin: true })
        const { context, page, errors } = await openIn(browser, language, width, cookie)
        await visit(page, '/admin/config/general')
        await assertDocumentLanguage(page, code, assert)
        await page
          .getByRole('button', { name: buttonName(tr(code, 'admin:config.save')) })
          .waitFor()
        await page.locator('form[id="config"] .ant-form-item').first().waitFor()
        await page
          .getByText(tr(code, 'admin:config.variables.general.appName.label'), { exact: true })
          .first()
          .waitFor()
        assert.deepEqual(await english(page, code), [])
        assert.deepEqual(await cutOff(page), [])

        if (code === 'ar-EG') {
          // antd's direction is rtl, and the panel is mirrored: the back-to-the-app arrow points right.
          assert.equal(
            await page
              .locator('.ant-layout')
              .first()
              .evaluate((element) => window.getComputedStyle(element).direction),
            'rtl'
          )
          assert.equal(await scaleX(page, '.tern-admin-header a[href="/"] .anticon'), -1)
          const back = (await page.locator('.tern-admin-header a[href="/"]').boundingBox())!
          assert.isAbove(back.x + back.width / 2, width / 2, 'the back link is on the right half')
        }
        assert.deepEqual(errors, [])
        await context.close()
      }).timeout(120_000)
    }
  }

  test('the language menu names each of the 22 languages in itself', async ({
    browser,
    assert,
  }) => {
    const { context, page, errors } = await openIn(browser, { code: 'ar-EG', via: 'cookie' }, 1440)
    await visit(page, '/upload')
    await page.getByTestId('language-menu').click()
    const menu = page.getByRole('menu')
    await menu.waitFor()
    const names = await menu
      .getByRole('menuitem')
      .evaluateAll((items) => items.map((item: any) => item.textContent.trim()))
    assert.lengthOf(LOCALES, 22)
    for (const locale of LOCALES) assert.include(names, locale.name)
    for (const name of [
      'Deutsch',
      '日本語',
      'العربية',
      'Русский',
      'English',
      'Français',
      '简体中文',
      'Ελληνικά',
    ]) {
      assert.include(names, name)
    }
    assert.equal(
      await menu.getByRole('menuitem', { name: 'العربية' }).locator('[lang]').getAttribute('lang'),
      'ar-EG'
    )
    assert.deepEqual(errors, [])
    await context.close()
  })
})
