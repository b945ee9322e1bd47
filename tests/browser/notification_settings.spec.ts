/**
 * The notification settings in Chromium against the real server: a user's
 * own routes on My account (kept across a reload), the instance routes of
 * the admin panel (disabled cells with their reason, the API's message for
 * a refused set), both at 360 px wide without sideways scrolling, and what
 * they say on an instance without any notification channel.
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import {
  NotificationManager,
  notifications,
  type NotificationEventId,
} from '#extensions/notifications/main'
import NotificationRoutesService from '#services/notifications/notification_routes_service'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const PASSWORD = 'correct horse battery'

/**
 * A channel of this test only: it reaches an instance-wide destination and
 * can deliver `events`, which a test may narrow while a page is open.
 */
const PAGER = 'test-pager'
const pager = {
  events: ['share.created', 'share.deleted'] as NotificationEventId[],
  targets: { user: false, instance: true },
  async deliver() {},
}

/**
 * Signs in through the form and lands on `path`. The first page of a run is
 * compiled by Vite on demand, which takes long on a loaded machine.
 */
async function signIn(
  browser: Browser,
  username: string,
  path: string,
  viewport?: { width: number; height: number }
) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport })
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto(`/auth/signIn?redirect=${encodeURIComponent(path)}`, {
    waitUntil: 'domcontentloaded',
    timeout: 180_000,
  })
  await page.waitForSelector('html[data-hydrated]', { timeout: 180_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\nPage errors: ${errors.join(' | ') || 'none'}`, {
      cause: error,
    })
  })
  await page.getByLabel('Email or username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([
    page.waitForURL((url) => url.pathname === path),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ])
  await page.waitForSelector('html[data-hydrated]')
  return { context, page, errors }
}

/** The routes stored for `userId` (null: the instance's) as `event>channel`. */
async function storedRoutes(userId: string | null) {
  const query = db
    .from('notification_routes')
    .select('event', 'channel')
    .orderBy('event')
    .orderBy('channel')
  const rows = await (userId === null ? query.whereNull('user_id') : query.where('user_id', userId))
  return rows.map((row: { event: string; channel: string }) => `${row.event}>${row.channel}`)
}

/** The width of the page's content (more than the viewport: it scrolls sideways). */
function scrollWidth(page: Page) {
  return page.evaluate<number>('document.scrollingElement.scrollWidth')
}

test.group('Notification settings | browser', (group) => {
  group.setup(() => {
    notifications.register(PAGER, () => pager)
    return () => notifications.unregister(PAGER).then(() => undefined)
  })
  group.each.setup(async () => {
    pager.events = ['share.created', 'share.deleted']
    // A confirmed public address: admins signing in go straight on (no address step, inertia/components/auth/address_step.tsx).
    await setConfig('general.appUrl', baseUrl())
    return async () => {
      await db.from('notification_routes').delete()
      await cleanupShareTests()
    }
  })

  test('a user has downloads of his shares e-mailed to him; the choice is kept after a reload', async ({
    browser,
    assert,
  }) => {
    const { user } = await shareUser({ password: PASSWORD })
    const { context, page, errors } = await signIn(browser, user.username, '/account')

    // SMTP is off (the default): no e-mail toggle is offered, which would only collect failed deliveries.
    const card = page.getByRole('region', { name: 'Notifications' })
    await card.getByRole('group', { name: 'Shares', exact: true }).waitFor()
    assert.equal(await card.getByRole('checkbox', { name: /^E-mail: / }).count(), 0)
    await setConfig('smtp.enabled', 'true')
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await card.getByRole('group', { name: 'Shares', exact: true }).waitFor()
    await card.getByRole('group', { name: 'Reverse shares', exact: true }).waitFor()
    const save = card.getByRole('button', { name: 'Save notification settings' })
    assert.isTrue(await save.isDisabled())
    // Only channels that reach one user: the instance-wide pager is not offered.
    assert.equal(await card.getByRole('checkbox', { name: /^test-pager:/ }).count(), 0)

    const downloads = card.getByRole('checkbox', {
      name: 'E-mail: When someone downloads one of my shares',
    })
    await downloads.check()
    await card.getByText('You have unsaved changes.').waitFor()
    await save.click()
    await page.getByText('Notification settings saved').waitFor()
    assert.deepEqual(await storedRoutes(user.id), ['share.downloaded>email'])
    assert.isTrue(await save.isDisabled())

    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    const reloaded = page.getByRole('region', { name: 'Notifications' })
    const kept = reloaded.getByRole('checkbox', {
      name: 'E-mail: When someone downloads one of my shares',
    })
    await kept.waitFor()
    assert.isTrue(await kept.isChecked())
    assert.isFalse(
      await reloaded
        .getByRole('checkbox', { name: 'E-mail: When one of my shares has expired' })
        .isChecked()
    )
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(300_000)

  test('an admin routes an instance event; cells a channel cannot deliver are disabled with the reason; a refused set shows the API message', async ({
    browser,
    assert,
  }) => {
    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const { context, page, errors } = await signIn(browser, admin.username, '/admin/notifications')
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Notifications' })
      .waitFor()
    const matrix = page.getByTestId('admin-notifications-matrix')
    const created = matrix.getByRole('checkbox', { name: 'test-pager: A share is created' })
    await created.waitFor()
    assert.equal(await matrix.getAttribute('data-layout'), 'table')

    // The pager cannot deliver downloads: the box is disabled and says why.
    const downloaded = matrix.getByRole('checkbox', { name: 'test-pager: A share is downloaded' })
    assert.isTrue(await downloaded.isDisabled())
    assert.equal(
      await downloaded
        .getAttribute('aria-describedby')
        .then((id) => page.locator(`#${id}`).innerText()),
      'test-pager cannot deliver this event.'
    )
    await matrix.locator('[data-disabled-route="share.downloaded:test-pager"]').hover()
    await page.getByRole('tooltip', { name: 'test-pager cannot deliver this event.' }).waitFor()

    await created.check()
    await page.getByRole('button', { name: 'Save notification settings' }).click()
    await page.getByText('Notification settings saved').waitFor()
    assert.deepEqual(await storedRoutes(null), ['share.created>test-pager'])

    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    await created.waitFor()
    assert.isTrue(await created.isChecked())

    // The pager stops delivering deletions while the page still offers them: the server refuses, nothing changes.
    await matrix.getByRole('checkbox', { name: 'test-pager: A share is deleted' }).check()
    pager.events = ['share.created']
    await page.getByRole('button', { name: 'Save notification settings' }).click()
    await page
      .getByTestId('form-error')
      .getByText('The channel "test-pager" cannot deliver the event "share.deleted"')
      .waitFor()
    assert.deepEqual(await storedRoutes(null), ['share.created>test-pager'])
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(300_000)

  test('at 360 px wide each event is a list of channels and nothing scrolls sideways', async ({
    browser,
    assert,
  }) => {
    await setConfig('smtp.enabled', 'true')
    const { user } = await shareUser({ admin: true, password: PASSWORD })
    const phone = { width: 360, height: 780 }
    const { context, page, errors } = await signIn(browser, user.username, '/account', phone)

    const card = page.getByRole('region', { name: 'Notifications' })
    const matrix = card.getByTestId('account-notifications-matrix')
    await matrix.and(page.locator('[data-layout="list"]')).waitFor()
    const event = card.getByRole('group', { name: 'When someone downloads one of my shares' })
    await event
      .getByRole('checkbox', { name: 'E-mail: When someone downloads one of my shares' })
      .waitFor()
    assert.isAtMost(await scrollWidth(page), 360)

    await page.goto('/admin/notifications')
    await page.waitForSelector('html[data-hydrated]')
    const adminMatrix = page.getByTestId('admin-notifications-matrix')
    await adminMatrix.and(page.locator('[data-layout="list"]')).waitFor()
    const reason = adminMatrix.locator('[data-disabled-route="share.downloaded:test-pager"]')
    await page.assertTextContains(reason, 'test-pager cannot deliver this event.')
    assert.isAtMost(await scrollWidth(page), 360)
    assert.deepEqual(errors, [])
    await context.close()
  }).timeout(300_000)

  test('without any notification channel both pages say how to get one', async ({
    browser,
    assert,
  }) => {
    // An instance whose enabled plugins register no channel: the routes service sees an empty registry.
    app.container.swap(NotificationRoutesService, () =>
      Object.assign(new NotificationRoutesService(), { channels: new NotificationManager() })
    )
    try {
      const { user } = await shareUser({ admin: true, password: PASSWORD })
      const { context, page, errors } = await signIn(browser, user.username, '/account')
      const card = page.getByRole('region', { name: 'Notifications' })
      const empty = card.getByTestId('account-notifications-empty')
      await empty.waitFor()
      await page.assertTextContains(empty, 'No notification channel can reach you')
      await page.assertTextContains(
        empty,
        'Ask your administrator to enable a notification channel.'
      )
      assert.equal(await card.getByRole('checkbox').count(), 0)

      await page.goto('/admin/notifications')
      await page.waitForSelector('html[data-hydrated]')
      const adminEmpty = page.getByTestId('admin-notifications-empty')
      await adminEmpty.waitFor()
      await page.assertTextContains(adminEmpty, 'No notification channel is enabled')
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin/config/general'),
        adminEmpty.getByRole('button', { name: 'Open the configuration' }).click(),
      ])
      assert.deepEqual(errors, [])
      await context.close()
    } finally {
      app.container.restore(NotificationRoutesService)
    }
  }).timeout(300_000)
})
